// Liveness and readiness probes answer HEAD as they answer GET (RFC 9110 9.1), without a body: health checks
// made with HEAD (HAProxy's `option httpchk HEAD /healthz`, uptime monitors) got 404 and marked the bot down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';

describe('probes answer HEAD', () => {
  let server: RunningHttpServer;
  let live = true;
  let ready = true;
  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      live: () => live,
      ready: () => Promise.resolve({ ok: ready, redis: ready ? 'ok' : 'unreachable' }),
      routes: { '/metrics': (_req, res) => void res.writeHead(200).end('# metrics\n') },
    });
  });
  afterAll(() => server.close());
  const head = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'HEAD' });
    return { status: res.status, body: await res.text() };
  };

  it('answers HEAD /healthz and /readyz with the status GET gets, and no body', async () => {
    [live, ready] = [true, true];
    expect(await head('/healthz')).toEqual({ status: 200, body: '' });
    expect(await head('/readyz')).toEqual({ status: 200, body: '' });
    [live, ready] = [false, false];
    expect(await head('/healthz')).toEqual({ status: 503, body: '' });
    expect(await head('/readyz')).toEqual({ status: 503, body: '' });
  });

  it('keeps HEAD off the other GET routes and other methods off the probes', async () => {
    expect((await head('/metrics')).status).toBe(404);
    const post = await fetch(`http://127.0.0.1:${server.port}/healthz`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});
