// The metrics' fetch wrapper (src/slack/counted-fetch.ts) reports each Web API call's method and error, and
// hands the WebClient the answer whole: same status, headers, URL and body, read once (not a clone, whose
// stream tee cost as much CPU as the rest of the call).
import { describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../src/http/index.js';
import { countedFetch } from '../../src/slack/counted-fetch.js';

const URL_OF = 'https://slack.example/api/chat.postMessage';

/** A fetch answering `body` with `status`, whose response refuses to be cloned, and the answer's URL set. */
function answering(body: string, status = 200, headers: Record<string, string> = {}) {
  return (): Promise<Response> => {
    const response = new Response(body, {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
    Object.defineProperty(response, 'url', { value: URL_OF });
    Object.defineProperty(response, 'clone', {
      value: () => {
        throw new Error('the answer was cloned');
      },
    });
    return Promise.resolve(response);
  };
}

/** The calls heard by the observer, as `method error`. */
function observer() {
  const heard: string[] = [];
  return { heard, observe: (method: string, error: string) => heard.push(`${method} ${error}`) };
}

describe('countedFetch', () => {
  it('reports an ok call and hands on its whole answer without cloning it', async () => {
    const { heard, observe } = observer();
    const body = JSON.stringify({ ok: true, channel: 'D1', ts: '1.2' });
    const fetch = countedFetch(observe, answering(body, 200, { 'x-slack-req-id': 'r1' }));
    const response = await fetch(URL_OF, { method: 'POST' });
    expect(heard).toEqual(['chat.postMessage none']);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-slack-req-id')).toBe('r1');
    expect(response.url).toBe(URL_OF);
    expect(await response.json()).toEqual({ ok: true, channel: 'D1', ts: '1.2' });
  });

  it('looks at a body src/http already read and hands that same answer on, unread', async () => {
    const { heard, observe } = observer();
    const answer = new BufferedResponse(Buffer.from('{"ok":false,"error":"not_in_channel"}'), {
      status: 200,
    });
    const response = await countedFetch(observe, () => Promise.resolve(answer))(URL_OF, { method: 'POST' });
    expect(heard).toEqual(['chat.postMessage not_in_channel']);
    expect(response).toBe(answer);
    expect(await response.json()).toEqual({ ok: false, error: 'not_in_channel' });
  });

  it("reports Slack's error code and hands on the answer that carries it", async () => {
    const { heard, observe } = observer();
    const body = JSON.stringify({ ok: false, error: 'channel_not_found' });
    const response = await countedFetch(observe, answering(body))(URL_OF, { method: 'POST' });
    expect(heard).toEqual(['chat.postMessage channel_not_found']);
    expect(await response.json()).toEqual({ ok: false, error: 'channel_not_found' });
  });

  it('reports an answer that is not JSON as unexpected_response, its text kept', async () => {
    const { heard, observe } = observer();
    const response = await countedFetch(observe, answering('<html>'))(URL_OF, { method: 'POST' });
    expect(heard).toEqual(['chat.postMessage unexpected_response']);
    expect(await response.text()).toBe('<html>');
  });

  it('hands a 429 on as it came, with its Retry-After', async () => {
    const { heard, observe } = observer();
    const fetch = countedFetch(observe, answering('', 429, { 'retry-after': '3' }));
    const response = await fetch(URL_OF, { method: 'POST' });
    expect(heard).toEqual(['chat.postMessage ratelimited']);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
  });

  it('reports a call that got no answer as request_error and rethrows', async () => {
    const { heard, observe } = observer();
    const failing = () => Promise.reject(new TypeError('fetch failed'));
    await expect(countedFetch(observe, failing)(URL_OF, { method: 'POST' })).rejects.toThrow('fetch failed');
    expect(heard).toEqual(['chat.postMessage request_error']);
  });
});
