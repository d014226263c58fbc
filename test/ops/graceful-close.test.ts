// Graceful shutdown of the bot's HTTP server: a request under way when the stop comes (a person's submitted
// answer at /slack/events) is answered, not cut with its connection; keep-alive connections end once their
// request is answered; what never answers is dropped after DRAIN_WITHIN_MS, timed by the injected schedule.
import { Agent, request, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DRAIN_WITHIN_MS, startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';

const NOW_MS = 1_800_000_000_000;
const NOW_SEC = NOW_MS / 1000;

/** Timers the test runs by hand, with the delay each was set for. */
function handTimers() {
  const due: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    due,
    schedule: (fn: () => void, ms: number) => {
      const timer = { fn, ms, cancelled: false };
      due.push(timer);
      return () => void (timer.cancelled = true);
    },
    /** Runs the timers set for `ms` that are not cancelled. */
    run: (ms: number) => due.filter((t) => t.ms === ms && !t.cancelled).forEach((t) => t.fn()),
  };
}

/** A server whose Slack handler hands each response to the test instead of answering it. */
async function holdingServer(schedule: ReturnType<typeof handTimers>['schedule']) {
  const held: ServerResponse[] = [];
  const waiters: ((res: ServerResponse) => void)[] = [];
  const server = await startHttpServer({
    port: 0,
    host: '127.0.0.1',
    clock: { now: () => NOW_MS },
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    events: (_req, res) => {
      const waiter = waiters.shift();
      if (waiter) waiter(res);
      else held.push(res);
    },
    schedule,
  });
  /** The next request's response once it reached the handler. */
  const arrived = (): Promise<ServerResponse> =>
    new Promise((resolve) => {
      const res = held.shift();
      if (res) resolve(res);
      else waiters.push(resolve);
    });
  return { server, arrived };
}

/** POSTs a Slack request over `agent` (keep-alive, as Slack's are) and settles with what the client saw. */
function post(
  port: number,
  agent: Agent,
): Promise<{ status?: number; connection?: string; body?: string; error?: string }> {
  const body = '{"type":"view_submission"}';
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: '/slack/events',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'x-slack-request-timestamp': String(NOW_SEC),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection ?? '', body: text }),
        );
      },
    );
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(body);
  });
}

describe('graceful close of the HTTP server', () => {
  const agents: Agent[] = [];
  const servers: RunningHttpServer[] = [];
  afterEach(async () => {
    agents.splice(0).forEach((a) => a.destroy());
    // Each test closes its server; this is for one that failed before it did (a second close() is the first's).
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const keepAlive = (): Agent => {
    const agent = new Agent({ keepAlive: true });
    agents.push(agent);
    return agent;
  };

  it('answers a Slack request under way when the stop comes instead of cutting its connection', async () => {
    const timers = handTimers();
    const { server, arrived } = await holdingServer(timers.schedule);
    servers.push(server);
    const seen = post(server.port, keepAlive());
    const res = await arrived();
    const closed = server.close();
    res.writeHead(200).end('acked');
    expect(await seen).toEqual({ status: 200, connection: 'close', body: 'acked' });
    // Closed by the answered request's connection ending, not by the drain's bound.
    await closed;
    expect(timers.due.filter((t) => t.ms === DRAIN_WITHIN_MS && !t.cancelled)).toEqual([]);
  });

  it('drops a request still unanswered once DRAIN_WITHIN_MS pass, and then resolves close()', async () => {
    const timers = handTimers();
    const { server, arrived } = await holdingServer(timers.schedule);
    servers.push(server);
    const seen = post(server.port, keepAlive());
    await arrived();
    const closed = server.close();
    expect(timers.due.map((t) => t.ms)).toContain(DRAIN_WITHIN_MS);
    timers.run(DRAIN_WITHIN_MS);
    expect(await seen).toEqual({ error: 'socket hang up' });
    await closed;
  });

  it('closes an idle keep-alive connection at once, without waiting for the drain', async () => {
    const timers = handTimers();
    const { server, arrived } = await holdingServer(timers.schedule);
    servers.push(server);
    const agent = keepAlive();
    const first = post(server.port, agent);
    (await arrived()).writeHead(200).end('first');
    expect(await first).toEqual({ status: 200, connection: 'keep-alive', body: 'first' });
    await server.close();
    expect(timers.due.filter((t) => t.ms === DRAIN_WITHIN_MS && !t.cancelled)).toEqual([]);
  });
});
