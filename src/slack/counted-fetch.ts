// Every Web API call the bot makes goes through the WebClient's `fetch` (Bolt's clients, each workspace's, the
// outbox's): this wrapper reports each call's method and how it went, for the metrics. It reads a clone of the
// response, so the WebClient still gets the whole body.

/** Hears one finished call: the method (`chat.postMessage`, or `other` for a URL that names none) and its error. */
export type SlackCallObserver = (method: string, error: string) => void;

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A Web API method name as it appears at the end of the call's URL path. */
const METHOD = /^[a-z]+(?:\.[A-Za-z]+)+$/;

function methodOf(url: string | URL): string {
  const path = new URL(url).pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return METHOD.test(last) ? last : 'other';
}

/** "none" for `ok: true`; "ratelimited" for a 429; `http_<status>` for another HTTP failure; else Slack's code. */
async function errorOf(response: Response): Promise<string> {
  if (response.status === 429) return 'ratelimited';
  if (!response.ok) return `http_${response.status}`;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== 'object' || body === null || !('ok' in body)) return 'unexpected_response';
  if (body.ok === true) return 'none';
  return 'error' in body && typeof body.error === 'string' ? body.error : 'unknown_error';
}

/** `fetch` that reports each call to `observe`; a call that never got an answer is `request_error`. */
export function countedFetch(observe: SlackCallObserver, fetchFn: Fetch = globalThis.fetch): Fetch {
  return async (url, init) => {
    const method = methodOf(url);
    let response: Response;
    try {
      response = await fetchFn(url, init);
    } catch (error) {
      observe(method, 'request_error');
      throw error;
    }
    observe(method, await errorOf(response));
    return response;
  };
}
