// One JSON-RPC message POSTed to a Streamable HTTP endpoint as a host's transport would, bearer token included.
export const postJsonRpc = (url: URL, token: string, message: object): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
