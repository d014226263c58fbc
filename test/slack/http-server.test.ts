// The bot's HTTP server: Slack's requests must carry a timestamp within 5 minutes of our clock in both
// directions (Bolt only rejects old ones); probes answer by liveness and readiness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFreshTimestamp, startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';

const NOW_MS = 1_800_000_000_000;
const NOW_SEC = NOW_MS / 1000;

describe('isFreshTimestamp', () => {
  it('accepts up to 300 s either way and refuses 301 s old or ahead, and anything not a Unix time', () => {
    const at = (sec: number | string) => isFreshTimestamp(String(sec), NOW_MS);
    expect([at(NOW_SEC - 300), at(NOW_SEC), at(NOW_SEC + 300)]).toEqual([true, true, true]);
    expect([at(NOW_SEC - 301), at(NOW_SEC + 301)]).toEqual([false, false]);
    expect([at('1.8e9'), at(''), at('-5'), isFreshTimestamp(undefined, NOW_MS)]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('startHttpServer', () => {
  let server: RunningHttpServer;
  let ready = { ok: true };
  let readiness = (): Promise<{ ok: boolean }> => Promise.resolve(ready);
  const reached: string[] = [];
  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      clock: { now: () => NOW_MS },
      live: () => true,
      ready: () => readiness(),
      events: (req, res) => {
        reached.push(String(req.headers['x-slack-request-timestamp']));
        res.writeHead(200).end();
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (ts: number) =>
    fetch(`http://127.0.0.1:${server.port}/slack/events`, {
      method: 'POST',
      headers: { 'x-slack-request-timestamp': String(ts) },
      body: '{"type":"event_callback"}',
    });

  it('answers 401 to a request 301 s old or 301 s ahead without handing it to Bolt', async () => {
    expect((await post(NOW_SEC - 301)).status).toBe(401);
    expect((await post(NOW_SEC + 301)).status).toBe(401);
    expect((await post(NOW_SEC + 300)).status).toBe(200);
    expect(reached).toEqual([String(NOW_SEC + 300)]);
  });

  it('answers /readyz 200 or 503 with the readiness body, and /healthz by liveness', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    ready = { ok: true };
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    ready = { ok: false };
    const down = await fetch(`${base}/readyz`);
    expect([down.status, await down.json()]).toEqual([503, { ok: false }]);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });

  it('answers /readyz 503 itself when the readiness check never settles', async () => {
    readiness = () => new Promise(() => undefined);
    const stuck = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    expect([stuck.status, await stuck.json()]).toEqual([
      503,
      { ok: false, error: 'readiness check timed out' },
    ]);
    readiness = () => Promise.resolve(ready);
  });
});

describe('startHttpServer counting Slack requests in flight', () => {
  it('counts a request at /slack/events from its arrival until it is answered', async () => {
    const log: string[] = [];
    let answer: (() => void) | undefined;
    const server = await startHttpServer({
      port: 0,
      clock: { now: () => NOW_MS },
      live: () => true,
      ready: () => Promise.resolve({ ok: true }),
      events: (_req, res) => {
        log.push('handed to Bolt');
        answer = () => res.writeHead(200).end();
      },
      inFlight: {
        arrived: () => {
          log.push('arrived');
          return () => log.push('answered');
        },
      },
    });
    try {
      const reply = fetch(`http://127.0.0.1:${server.port}/slack/events`, {
        method: 'POST',
        headers: { 'x-slack-request-timestamp': String(NOW_SEC) },
        body: '{"type":"event_callback"}',
      });
      await expect.poll(() => log).toEqual(['arrived', 'handed to Bolt']);
      answer?.();
      expect((await reply).status).toBe(200);
      await expect.poll(() => log).toEqual(['arrived', 'handed to Bolt', 'answered']);
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      expect(log).toEqual(['arrived', 'handed to Bolt', 'answered']);
    } finally {
      await server.close();
    }
  });
});
