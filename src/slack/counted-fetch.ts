// Every Web API call the bot makes goes through the WebClient's `fetch` (Bolt's clients, each workspace's, the
// outbox's): this wrapper reports each call's method and how it went, for the metrics. It reads the response's
// body (or looks at the one src/http already read) and hands the WebClient a response with that same body.
import { BufferedResponse } from '../http/index.js';

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

/** "none" for `ok: true`; else Slack's error code, read from a Web API answer's JSON text. */
function errorOfBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'unexpected_response';
  }
  if (typeof body !== 'object' || body === null || !('ok' in body)) return 'unexpected_response';
  if (body.ok === true) return 'none';
  return 'error' in body && typeof body.error === 'string' ? body.error : 'unknown_error';
}

/**
 * The call's error ("ratelimited" for a 429, `http_<status>` for another HTTP failure, else errorOfBody) and
 * the response to hand on. A body src/http already read (BufferedResponse) is looked at and the response handed
 * on as it is. Any other 200's body is read once, here, and handed on as a new Response with the same status,
 * headers and URL: cloning it instead tees its stream, which cost about as much CPU as the rest of the call (a
 * Web API call made ~1.4 ms of client and server CPU with the clone; see the commit).
 */
async function observed(response: Response): Promise<{ error: string; response: Response }> {
  if (response.status === 429) return { error: 'ratelimited', response };
  if (!response.ok) return { error: `http_${response.status}`, response };
  if (response instanceof BufferedResponse)
    return { error: errorOfBody(response.buffered.toString()), response };
  const text = await response.text();
  const { status, statusText, headers, url } = response;
  const again = new Response(text, { status, statusText, headers });
  // The WebClient reads the URL of some answers (admin.analytics.getFile); a new Response has none.
  Object.defineProperty(again, 'url', { value: url });
  return { error: errorOfBody(text), response: again };
}

/** `fetch` that reports each call to `observe`; a call that never got an answer is `request_error`. */
export function countedFetch(observe: SlackCallObserver, fetchFn: Fetch = globalThis.fetch): Fetch {
  return async (url, init) => {
    const method = methodOf(url);
    let answer: { error: string; response: Response };
    try {
      answer = await observed(await fetchFn(url, init));
    } catch (error) {
      observe(method, 'request_error');
      throw error;
    }
    observe(method, answer.error);
    return answer.response;
  };
}
