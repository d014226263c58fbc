// The bot's HTTP server: Slack's requests must carry a timestamp within 5 minutes of our clock in both
// directions (Bolt only rejects old ones); probes answer by liveness and readiness.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
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
  const logged: unknown[][] = [];
  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      clock: { now: () => NOW_MS },
      live: () => true,
      ready: () => readiness(),
      logger: {
        error: (...args: unknown[]) => void logged.push(args),
        // A timeout's lines and those after a failure: readyz-timeouts.test.ts, readyz-failures.test.ts.
        warn: () => undefined,
        info: () => undefined,
      },
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

  it("answers /readyz 503 with a fixed body when the check fails, and logs the error's text instead", async () => {
    // An error as a failed connection reports it: the host, and a URL with its password.
    const failure = new Error('connect ECONNREFUSED redis://:hunter2@10.1.2.3:6379');
    readiness = () => Promise.reject(failure);
    const failed = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    const text = await failed.text();
    expect([failed.status, JSON.parse(text)]).toEqual([503, { ok: false, error: 'readiness check failed' }]);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('10.1.2.3');
    expect(logged).toEqual([
      [
        { err: failure, failingForMs: 0, failuresSinceLastLine: 1 },
        '/readyz: the readiness check failed (answered 503); logged again at most every 5 min while checks fail',
      ],
    ]);
    readiness = () => Promise.resolve(ready);
  });
});

describe('startHttpServer counting Slack requests in flight', () => {
  /** A count of what is in flight, as the ack gate keeps it (each answer counted once), and every change of it. */
  function inFlightCount() {
    const seen: number[] = [];
    let now = 0;
    return {
      seen,
      now: () => now,
      arrived: () => {
        seen.push((now += 1));
        let answered = false;
        return () => {
          if (answered) return;
          answered = true;
          seen.push((now -= 1));
        };
      },
    };
  }

  /** Timers the test runs by hand. */
  function handTimers() {
    const due: (() => void)[] = [];
    return {
      schedule: (fn: () => void) => {
        let cancelled = false;
        due.push(() => (cancelled ? undefined : fn()));
        return () => (cancelled = true);
      },
      runAll: () => due.splice(0).forEach((fn) => fn()),
    };
  }

  /** An HTTP/1.1 POST of a Slack event, as raw bytes. */
  const rawPost = (port: number): string => {
    const body = '{"type":"event_callback"}';
    return (
      `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slack-Request-Timestamp: ${NOW_SEC}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
    );
  };

  async function serverCounting(
    inFlight: ReturnType<typeof inFlightCount>,
    events: (res: ServerResponse) => void,
    schedule = handTimers().schedule,
  ) {
    return startHttpServer({
      port: 0,
      clock: { now: () => NOW_MS },
      live: () => true,
      ready: () => Promise.resolve({ ok: true }),
      events: (_req, res) => events(res),
      inFlight,
      schedule,
    });
  }

  it('counts a request at /slack/events from its arrival until it is answered', async () => {
    const count = inFlightCount();
    let answer: (() => void) | undefined;
    let whileWithBolt: number | undefined;
    const server = await serverCounting(count, (res) => {
      whileWithBolt = count.now();
      answer = () => res.writeHead(200).end();
    });
    try {
      const reply = fetch(`http://127.0.0.1:${server.port}/slack/events`, {
        method: 'POST',
        headers: { 'x-slack-request-timestamp': String(NOW_SEC) },
        body: '{"type":"event_callback"}',
      });
      await expect.poll(() => answer).toBeDefined();
      // Its connection counted until the request arrived; the request counts until it is answered.
      expect(whileWithBolt).toBe(1);
      answer?.();
      expect((await reply).status).toBe(200);
      await expect.poll(() => count.now()).toBe(0);
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      await expect.poll(() => count.now()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('counts a connection just accepted until its first request arrives', async () => {
    const count = inFlightCount();
    const server = await serverCounting(count, (res) => res.writeHead(200).end());
    const socket = connect(server.port, '127.0.0.1');
    try {
      // Nothing sent yet: the accepted connection alone counts as a request on its way.
      await expect.poll(() => count.now()).toBe(1);
      const closed = once(socket, 'close');
      const reply: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => reply.push(chunk));
      socket.write(rawPost(server.port));
      await closed;
      expect(Buffer.concat(reply).toString()).toMatch(/^HTTP\/1.1 200/);
      await expect.poll(() => count.now()).toBe(0);
      // Connection 1, then its request 2 and the connection's end 1, then the answer 0: never 0 in between.
      expect(count.seen).toEqual([1, 2, 1, 0]);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('stops counting a connection that closes, or stays silent for FRESH_CONNECTION_MS, without a request', async () => {
    const count = inFlightCount();
    const timers = handTimers();
    const server = await serverCounting(count, (res) => res.writeHead(200).end(), timers.schedule);
    const silent = connect(server.port, '127.0.0.1');
    const closing = connect(server.port, '127.0.0.1');
    try {
      await expect.poll(() => count.now()).toBe(2);
      closing.destroy();
      await expect.poll(() => count.now()).toBe(1);
      timers.runAll();
      expect(count.now()).toBe(0);
      silent.destroy();
      await once(silent, 'close');
      expect(count.seen).toEqual([1, 2, 1, 0]);
    } finally {
      silent.destroy();
      await server.close();
    }
  });
});
