// Deliveries through real Redis (BullMQ) to an independent receiver: a node:http server in the test that checks
// each signature with its own HMAC code. Backoff is shortened through the injected settings; the tests await
// what the receiver or the give-up report sees, never a fixed time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { keys } from '../../src/redis/index.js';
import {
  ATTEMPT_TIMEOUT_MS,
  Webhooks,
  parseAllowList,
  type GaveUp,
  type Resolve,
  type WebhooksOptions,
} from '../../src/webhooks/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { deferred } from '../support/deferred.js';

const SECRET = 'whsec-test-0123456789';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering each request with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[], redirectTo?: string) {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200;
      res.writeHead(status, redirectTo && status >= 300 && status < 400 ? { Location: redirectTo } : {});
      res.end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    received,
    url: `http://127.0.0.1:${port}/hook`,
    /** Resolves once `count` requests have arrived. */
    requests: (count: number) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ count, resolve })),
  };
}

/** The receiver's own check: recompute the HMAC over "v1:<timestamp>:<body>" and compare in constant time. */
function verified(r: Received): boolean {
  const timestamp = String(r.headers['x-elicit-relay-timestamp']);
  const given = String(r.headers['x-elicit-relay-signature']);
  const expected = `v1=${createHmac('sha256', SECRET).update(`v1:${timestamp}:${r.body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function webhooks(
  hosts: string,
  extra: Partial<Extract<WebhooksOptions, { url: string }>> = {},
  prefix = uniquePrefix(),
) {
  const parsed = parseAllowList(hosts);
  if ('bad' in parsed) throw new Error(parsed.bad);
  const gaveUp: GaveUp[] = [];
  const { promise: gaveUpOnce, resolve: reportGaveUp } = deferred<GaveUp>();
  opened.push(() => deleteUnder(prefix));
  const hooks = await Webhooks.open({
    url: redisUrl(),
    prefix,
    secret: SECRET,
    allowed: parsed.hosts,
    logger: { ...recordingLogger(), error: () => undefined },
    clock: systemClock,
    retry: { baseMs: 20, maxDelayMs: 50, giveUpAfterMs: 60_000 },
    onGaveUp: (g) => {
      gaveUp.push(g);
      reportGaveUp(g);
      return Promise.resolve();
    },
    ...extra,
  });
  opened.push(() => hooks.close());
  return { hooks, gaveUp, gaveUpOnce, prefix };
}

const question = { id: 'q1', status: 'accepted', result: { action: 'accept', content: { ok: true } } };

describe('webhook deliveries', () => {
  it('are signed, retried after a 500 with the same delivery id, and carry the resource plus its type; each attempt’s outcome is reported', async () => {
    const rx = await receiver([500, 200]);
    const outcomes: string[] = [];
    const { promise: delivered, resolve: onDelivered } = deferred();
    const onAttempt = (type: string, outcome: string): void => {
      outcomes.push(`${type} ${outcome}`);
      if (outcome === 'delivered') onDelivered();
    };
    const { hooks } = await webhooks(`127.0.0.1:${rx.port}`, { onAttempt });
    await hooks.start();
    const id = await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q1',
      url: rx.url,
      body: question,
      client: 'ci',
    });
    await rx.requests(2);
    const [first, second] = rx.received;
    expect(first && verified(first)).toBe(true);
    expect(second && verified(second)).toBe(true);
    expect(first?.headers['x-elicit-relay-delivery']).toBe(id);
    expect(second?.headers['x-elicit-relay-delivery']).toBe(id);
    expect(Math.abs(Number(second?.headers['x-elicit-relay-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(first?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(second?.body ?? '')).toEqual({ ...question, type: 'question.ended' });
    await delivered;
    expect(outcomes).toEqual(['question.ended retry', 'question.ended delivered']);
  });

  it('is one delivery when two replicas enqueue the same end', async () => {
    const rx = await receiver([200]);
    const a = await webhooks(`127.0.0.1:${rx.port}`);
    const b = await webhooks(`127.0.0.1:${rx.port}`, {}, a.prefix);
    const request = {
      type: 'call.ended' as const,
      resourceId: 'c1',
      url: rx.url,
      body: { id: 'c1' },
      client: 'ci',
    };
    const [idA, idB] = await Promise.all([a.hooks.enqueue(request), b.hooks.enqueue(request)]);
    expect(idA).toBe(idB);
    const queue = new Queue('webhooks', {
      connection: { url: redisUrl() },
      prefix: keys(a.prefix).bullPrefix,
    });
    opened.push(() => queue.close());
    expect(await queue.getJobCountByTypes('waiting', 'delayed', 'active', 'completed', 'failed')).toBe(1);
    await a.hooks.start();
    await b.hooks.start();
    await rx.requests(1);
    expect(JSON.parse(rx.received[0]?.body ?? '')).toEqual({ id: 'c1', type: 'call.ended' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and the Location is never called', async () => {
    const rx = await receiver([302, 200], '/elsewhere');
    const { hooks } = await webhooks(`127.0.0.1:${rx.port}`);
    await hooks.start();
    await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q2',
      url: rx.url,
      body: question,
      client: 'ci',
    });
    await rx.requests(2);
    expect(rx.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it('gives up once the next attempt would be too late, and reports it once with the last error', async () => {
    const rx = await receiver([500]);
    const errors: object[] = [];
    const { hooks, gaveUp, gaveUpOnce } = await webhooks(`127.0.0.1:${rx.port}`, {
      retry: { baseMs: 20, maxDelayMs: 40, giveUpAfterMs: 150 },
      logger: { ...recordingLogger(), error: (obj: object) => void errors.push(obj) },
    });
    await hooks.start();
    const url = `${rx.url}/T0/B0/hook-secret-5d1?token=tok-secret-77`;
    const id = await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q3',
      url,
      body: question,
      client: 'ci',
    });
    const report = await gaveUpOnce;
    expect(report).toMatchObject({ deliveryId: id, resourceId: 'q3', url, client: 'ci', code: 'bad_status' });
    expect(report.attempts).toBe(rx.received.length);
    expect(report.attempts).toBeGreaterThan(1);
    expect(gaveUp).toHaveLength(1);
    // The log names the receiver, not the secret its URL carries.
    expect(errors).toEqual([{ webhook: { ...report, url: `http://127.0.0.1:${rx.port}` } }]);
  });

  it('refuses, without calling it, a host the allow-list no longer names', async () => {
    const rx = await receiver([200]);
    const { hooks, gaveUpOnce } = await webhooks('ci.example.com');
    await hooks.start();
    await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q4',
      url: rx.url,
      body: question,
      client: 'ci',
    });
    expect(await gaveUpOnce).toMatchObject({ code: 'host_not_allowed', attempts: 1 });
    expect(rx.received).toEqual([]);
  });

  it('refuses an allowed name that resolves to the bot host (DNS rebinding), without connecting', async () => {
    const rx = await receiver([200]);
    const resolve: Resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const { hooks, gaveUpOnce } = await webhooks(`hooks.example.com:${rx.port}`, { resolve });
    await hooks.start();
    const url = `http://hooks.example.com:${rx.port}/hook`;
    await hooks.enqueue({ type: 'question.ended', resourceId: 'q5', url, body: question, client: 'ci' });
    expect(await gaveUpOnce).toMatchObject({ code: 'address_not_allowed', attempts: 1 });
    expect(rx.received).toEqual([]);
  });

  it('connects to the address it checked, sending the name as Host', async () => {
    const rx = await receiver([200]);
    const resolve: Resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const { hooks } = await webhooks(`localhost:${rx.port}`, { resolve });
    await hooks.start();
    const url = `http://localhost:${rx.port}/hook?x=1`;
    await hooks.enqueue({ type: 'question.ended', resourceId: 'q6', url, body: question, client: 'ci' });
    await rx.requests(1);
    expect(rx.received[0]?.headers.host).toBe(`localhost:${rx.port}`);
    expect(rx.received[0]?.path).toBe('/hook?x=1');
  });
  it('gives up on an attempt the receiver does not answer in time (10 s by default) and tries again', async () => {
    const arrived: string[] = [];
    const { promise: second, resolve: secondArrived } = deferred();
    // The first request is never answered; the second gets 200.
    const server = createServer((req, res) => {
      arrived.push(String(req.headers['x-elicit-relay-delivery']));
      if (arrived.length === 1) return;
      res.writeHead(200).end();
      secondArrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    opened.push(() => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    });
    const { port } = server.address() as AddressInfo;
    const outcomes: string[] = [];
    const onAttempt = (_type: string, outcome: string): void => void outcomes.push(outcome);
    const { hooks } = await webhooks(`127.0.0.1:${port}`, { attemptTimeoutMs: 200, onAttempt });
    await hooks.start();
    const url = `http://127.0.0.1:${port}/hook`;
    const id = await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q7',
      url,
      body: question,
      client: 'ci',
    });
    await second;
    expect(arrived).toEqual([id, id]);
    expect(outcomes[0]).toBe('retry');
    expect(ATTEMPT_TIMEOUT_MS).toBe(10_000);
  });
});
