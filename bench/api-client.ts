// A small client of the bot's Automations API for the benchmarks: create, withdraw, any request.

/** A small approval: the schema the sandbox's panel sends. */
export const SCHEMA = { type: 'object', properties: { comment: { type: 'string', title: 'Comment' } } };

/** The bot's API at `base`, with one token. */
export interface Api {
  base: string;
  request(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
}

export function apiOf(port: number, token: string): Api {
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    request: async (method, path, body) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: await res.json() };
    },
  };
}

/** Creates a question for `user` and returns its id (201 expected). */
export async function ask(api: Api, user: string, callbackUrl?: string): Promise<string> {
  const body = {
    message: 'Deploy?',
    requestedSchema: SCHEMA,
    to: { user },
    ...(callbackUrl && { callbackUrl }),
  };
  const { status, json } = await api.request('POST', '/api/v1/questions', body);
  const id = (json as { id?: unknown }).id;
  if (status !== 201 || typeof id !== 'string')
    throw new Error(`create answered ${status}: ${JSON.stringify(json)}`);
  return id;
}

/** Withdraws a pending question: Relay.end(cancel, withdrawn). */
export async function withdraw(api: Api, id: string): Promise<void> {
  const { status } = await api.request('DELETE', `/api/v1/questions/${id}`);
  if (status !== 200) throw new Error(`withdraw of ${id} answered ${status}`);
}
