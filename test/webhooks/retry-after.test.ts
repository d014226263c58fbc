// A receiver that answers 429 Too Many Requests or 503 Service Unavailable with Retry-After (seconds, or an HTTP
// date) is not called again before the time it asked for (at most the 1 h the backoff is capped at); one whose
// asked time falls past the delivery's 24 h gives up then rather than calling it sooner. It was called again
// after the plain backoff (10 s, 20 s …) whatever it asked. Real Redis (BullMQ) and a node:http receiver in the
// test; the backoff's base is 20 ms, so any wait longer than that is the receiver's.
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { keys } from '../../src/redis/index.js';
import { DEFAULT_RETRY, Webhooks, parseAllowList, type GaveUp } from '../../src/webhooks/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** A receiver answering every request `status` with `headers`; `requests(n)` resolves once n have arrived. */
async function receiver(status: number, headers: OutgoingHttpHeaders) {
  let received = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    received++;
    res.writeHead(status, headers).end();
    for (const w of waiting.filter((w) => received >= w.count)) w.resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const requests = (count: number): Promise<void> =>
    received >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve }));
  return { url: `http://127.0.0.1:${port}/hook`, host: `127.0.0.1:${port}`, requests };
}

/** A deliverer with a 20 ms backoff base and the real 1 h cap; `gaveUp` resolves with its first give-up. */
async function deliverer(host: string, giveUpAfterMs: number) {
  const parsed = parseAllowList(host);
  if ('bad' in parsed) throw new Error(parsed.bad);
  const prefix = uniquePrefix();
  opened.push(() => deleteUnder(prefix));
  const { promise: gaveUp, resolve: reportGaveUp } = deferred<GaveUp>();
  const hooks = await Webhooks.open({
    url: redisUrl(),
    prefix,
    secret: 'whsec-retry-after-0123456789',
    allowed: parsed.hosts,
    logger: { ...recordingLogger(), error: () => undefined },
    clock: systemClock,
    retry: { baseMs: 20, maxDelayMs: DEFAULT_RETRY.maxDelayMs, giveUpAfterMs },
    onGaveUp: (g) => {
      reportGaveUp(g);
      return Promise.resolve();
    },
  });
  opened.push(() => hooks.close());
  const bull = { connection: { url: redisUrl() }, prefix: keys(prefix).bullPrefix };
  const queue = new Queue('webhooks', bull);
  const events = new QueueEvents('webhooks', bull);
  opened.push(
    () => queue.close(),
    () => events.close(),
  );
  await events.waitUntilReady();
  /** The wait before the next attempt, in ms, once the failed attempt has put the job back. */
  const nextWait = async (id: string): Promise<number> => {
    const { promise: delayed, resolve } = deferred();
    events.on('delayed', ({ jobId }) => {
      if (jobId === id) resolve();
    });
    if ((await queue.getJob(id).then((job) => job?.getState())) !== 'delayed') await delayed;
    const job = await queue.getJob(id);
    return job?.delay ?? 0;
  };
  return { hooks, gaveUp, nextWait };
}

const body = { id: 'q-busy', status: 'declined' };

/** The plain backoff's first wait: 20 ms plus up to 10 % jitter. */
const PLAIN = 22;
const inTwoHours = (): string => new Date(Date.now() + 7_200_000).toUTCString();

describe("a receiver's Retry-After", () => {
  it.each([
    { answer: '429, 600 s', status: 429, retryAfter: () => '600', wait: [600_000, 600_000] },
    { answer: '503, 90 s', status: 503, retryAfter: () => '90', wait: [90_000, 90_000] },
    { answer: '429, a date 2 h ahead', status: 429, retryAfter: inTwoHours, wait: [3_600_000, 3_600_000] },
    { answer: '500, 600 s (not a request to wait)', status: 500, retryAfter: () => '600', wait: [0, PLAIN] },
    { answer: '429, unreadable', status: 429, retryAfter: () => 'later please', wait: [0, PLAIN] },
  ])('sets the least wait before the next attempt: $answer', async ({ status, retryAfter, wait }) => {
    const rx = await receiver(status, { 'Retry-After': retryAfter() });
    const { hooks, nextWait } = await deliverer(rx.host, 86_400_000);
    await hooks.start();
    const id = await hooks.enqueue({
      type: 'question.ended',
      resourceId: 'q-busy',
      url: rx.url,
      body,
      client: 'ci',
    });
    const waited = await nextWait(id);
    expect(waited).toBeGreaterThanOrEqual(wait[0] ?? 0);
    expect(waited).toBeLessThanOrEqual(wait[1] ?? 0);
  });

  it('past the delivery’s last attempt gives up at once instead of calling the receiver sooner', async () => {
    const rx = await receiver(429, { 'Retry-After': '120' });
    const { hooks, gaveUp } = await deliverer(rx.host, 60_000);
    await hooks.start();
    await hooks.enqueue({ type: 'question.ended', resourceId: 'q-busy', url: rx.url, body, client: 'ci' });
    const first = await Promise.race([gaveUp, rx.requests(2).then(() => 'called again')]);
    expect(first).toMatchObject({ code: 'bad_status', attempts: 1 });
  });
});
