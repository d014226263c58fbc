// One contract for the process's outbound fetch (src/http) and Node's own: both must answer every case the same,
// since the Slack Web API client and the MCP transports were written against Node's.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetch, ExchangeIdleError, httpFetch, type Fetch } from '../../src/http/index.js';
import { startServers, type Servers } from './servers.js';

let s: Servers;
beforeAll(async () => {
  s = await startServers();
});
afterAll(async () => {
  await s.close();
});

interface Echo {
  method: string;
  headers: Record<string, string>;
  body: string;
}

async function echoOf(response: Response): Promise<Echo> {
  expect(response.status).toBe(200);
  return (await response.json()) as Echo;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe.each<[string, Fetch]>([
  ["Node's fetch", globalThis.fetch],
  ['httpFetch', httpFetch],
])('%s', (_name, fetch) => {
  it('sends the method, headers and a string body with its default content type and length', async () => {
    const echo = await echoOf(
      await fetch(`${s.a}/echo`, { method: 'post', headers: { 'X-Trace': 't1' }, body: 'hello' }),
    );
    expect(echo).toMatchObject({ method: 'POST', body: 'hello' });
    expect(echo.headers).toMatchObject({
      'x-trace': 't1',
      'content-type': 'text/plain;charset=UTF-8',
      'content-length': '5',
      accept: '*/*',
    });
  });

  it('sends form parameters and bytes as fetch does, keeping a content type the caller set', async () => {
    const form = await echoOf(
      await fetch(`${s.a}/echo`, { method: 'POST', body: new URLSearchParams({ text: 'a b&c' }) }),
    );
    expect(form.body).toBe('text=a+b%26c');
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    const bytes = await echoOf(
      await fetch(`${s.a}/echo`, {
        method: 'POST',
        headers: new Headers({ 'content-type': 'application/json' }),
        body: new TextEncoder().encode('{"ok":true}'),
      }),
    );
    expect(bytes).toMatchObject({ body: '{"ok":true}', headers: { 'content-type': 'application/json' } });
  });

  it('answers with status, headers, url and a body readable as text, JSON or bytes', async () => {
    const response = await fetch(`${s.a}/echo?x=1`);
    expect(response.url).toBe(`${s.a}/echo?x=1`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.ok).toBe(true);
    expect(new TextDecoder().decode(await response.arrayBuffer())).toContain('"method":"GET"');
    const missing = await fetch(`${s.a}/nowhere`);
    expect([missing.status, await missing.json()]).toEqual([404, { path: '/nowhere' }]);
  });

  it('reads a body once, by any reader or its stream, and clones it only before that', async () => {
    const sent = { method: 'POST', body: 'héllo' };
    const first = await fetch(`${s.a}/echo`, sent);
    const copy = first.clone();
    expect(copy.url).toBe(`${s.a}/echo`);
    expect(JSON.parse(await first.text())).toMatchObject({ body: 'héllo' });
    expect(first.bodyUsed).toBe(true);
    await expect(first.json()).rejects.toThrow(TypeError);
    expect(() => new Response(first.body)).toThrow(TypeError);
    expect(() => first.clone()).toThrow(TypeError);
    expect(await copy.json()).toMatchObject({ body: 'héllo' });
    const blob = await (await fetch(`${s.a}/echo`, sent)).blob();
    expect([blob.type, JSON.parse(await blob.text())]).toMatchObject(['application/json', { body: 'héllo' }]);
    const streamed = await fetch(`${s.a}/echo`, sent);
    expect(streamed.bodyUsed).toBe(false);
    expect(JSON.parse(await new Response(streamed.body).text())).toMatchObject({ body: 'héllo' });
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.arrayBuffer()).rejects.toThrow(TypeError);
  });

  it('keeps repeated headers apart and decompresses a gzip body', async () => {
    const cookies = await fetch(`${s.a}/cookies`);
    expect(cookies.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await cookies.text()).toBe('two');
    expect(await (await fetch(`${s.a}/gzip`)).json()).toEqual({ zipped: true });
  });

  it('has no body for 204 and HEAD', async () => {
    const empty = await fetch(`${s.a}/no-content`, { method: 'DELETE' });
    expect([empty.status, empty.body]).toEqual([204, null]);
    const head = await fetch(`${s.a}/echo`, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, null]);
  });

  it('streams server-sent events: the first arrives before the server sends the second', async () => {
    const response = await fetch(`${s.a}/events`, { headers: { accept: 'text/event-stream' } });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader?.read())?.value).toBe('data: first\n\n');
    s.releaseEvent();
    expect((await reader?.read())?.value).toBe('data: second\n\n');
    expect((await reader?.read())?.done).toBe(true);
  });

  it('follows redirects: 303 and a 302 POST become GETs, 307 keeps method and body', async () => {
    for (const path of ['/see-other', '/found']) {
      const response = await fetch(`${s.a}${path}`, { method: 'POST', body: 'x' });
      expect(response.url).toBe(`${s.a}/echo`);
      expect(await echoOf(response)).toMatchObject({ method: 'GET', body: '' });
    }
    const kept = await echoOf(await fetch(`${s.a}/temporary`, { method: 'POST', body: 'x' }));
    expect(kept).toMatchObject({ method: 'POST', body: 'x' });
  });

  it('drops the authorization header when a redirect leaves the origin', async () => {
    const headers = { authorization: 'Bearer secret', 'x-keep': '1' };
    const moved = await echoOf(await fetch(`${s.a}/elsewhere`, { headers }));
    expect(moved.headers['x-keep']).toBe('1');
    expect(moved.headers.authorization).toBeUndefined();
  });

  it("refuses a redirect with redirect: 'error' and hands it over with 'manual'", async () => {
    await expect(fetch(`${s.a}/see-other`, { redirect: 'error' })).rejects.toThrow(TypeError);
    const manual = await fetch(`${s.a}/see-other`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([303, '/echo']);
  });

  it("rejects with the signal's reason: aborted before the answer, timed out, or while streaming", async () => {
    const controller = new AbortController();
    const pending = fetch(`${s.a}/never`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const timedOut = fetch(`${s.a}/never`, { signal: AbortSignal.timeout(50) });
    await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
    const streaming = new AbortController();
    const events = await fetch(`${s.a}/events`, { signal: streaming.signal });
    const reader = events.body?.getReader();
    await reader?.read();
    streaming.abort();
    await expect(reader?.read()).rejects.toMatchObject({ name: 'AbortError' });
    s.releaseEvent();
  });

  it('takes one signal for many requests in flight (an MCP transport passes its own to each) without a leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const inFlight = Array.from({ length: 20 }, () =>
        fetch(`${s.a}/never`, { signal: controller.signal }).catch((error: unknown) => error),
      );
      // Node emits the warning on the next tick after the 11th listener.
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      for (const settled of await Promise.all(inFlight))
        expect(settled).toMatchObject({ name: 'AbortError' });
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('fails a refused connection as TypeError "fetch failed" with the socket error as its cause', async () => {
    const refused = fetch(`http://127.0.0.1:${await closedPort()}/`);
    await expect(refused).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  it('sends a multipart form', async () => {
    const form = new FormData();
    form.append('file', new Blob(['content']), 'a.txt');
    const echo = await echoOf(await fetch(`${s.a}/echo`, { method: 'POST', body: form }));
    expect(echo.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('content');
  });
});

describe('httpFetch', () => {
  it('hands what node:http does not send itself to its fallback: a FormData body, a Request, data: URLs', async () => {
    const handed: string[] = [];
    const fetch = createHttpFetch({
      fallback: (input, init) => {
        handed.push(input instanceof Request ? 'request' : String(input).slice(0, 5));
        return globalThis.fetch(input, init);
      },
    });
    await fetch(`${s.a}/echo`, { method: 'POST', body: new FormData() });
    await fetch(new Request(`${s.a}/echo`));
    expect(await (await fetch('data:,hi')).text()).toBe('hi');
    await fetch(`${s.a}/echo`, { method: 'POST', body: 'plain' });
    expect(handed).toEqual(['http:', 'request', 'data:']);
  });

  it('fails an exchange silent for longer than its idle limit, before the answer or in the middle of a stream', async () => {
    const fetch = createHttpFetch({ idleMs: 200 });
    await expect(fetch(`${s.a}/never`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'exchange_idle' },
    });
    const events = await fetch(`${s.a}/events`);
    const reader = events.body?.getReader();
    await reader?.read();
    await expect(reader?.read()).rejects.toBeInstanceOf(ExchangeIdleError);
    s.releaseEvent();
  });
});
