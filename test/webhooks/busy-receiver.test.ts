// Webhook deliveries through real Redis (BullMQ) to receivers in the test: one receiver that hangs must not hold
// up the others' deliveries (each replica runs at most RECEIVER_CONCURRENCY attempts to one receiver, the others
// wait their turn without it counting as an attempt), and an allowed name re-pointed at the cloud's instance
// metadata service is refused on IPv6 as it is on IPv4. The tests await what the receivers and the attempt
// reports see.
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { keys } from '../../src/redis/index.js';
import { checkAddress, checkCallbackUrl, isRefusal } from '../../src/webhooks/hosts.js';
import { RECEIVER_CONCURRENCY } from '../../src/webhooks/queue.js';
import { Webhooks, deliveryId, parseAllowList, type AttemptOutcome } from '../../src/webhooks/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** A receiver calling `onRequest` for each request; `answer` false leaves every request unanswered. */
function receiver(answer: boolean, onRequest: () => void): Promise<string> {
  return serve((res) => {
    onRequest();
    if (answer) res.writeHead(200).end();
  });
}

/**
 * A receiver that holds every request until release(), then answers those and the later ones 200; `twoHeld`
 * resolves once it holds two.
 */
async function heldReceiver() {
  const held: ServerResponse[] = [];
  const { promise: twoHeld, resolve: holdsTwo } = deferred();
  let received = 0;
  let released = false;
  const url = await serve((res) => {
    received++;
    if (released) res.writeHead(200).end();
    else held.push(res);
    if (held.length === 2) holdsTwo();
  });
  const release = (): void => {
    released = true;
    for (const res of held.splice(0)) res.writeHead(200).end();
  };
  return { url, twoHeld, received: () => received, release };
}

async function serve(onRequest: (res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    onRequest(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function deliverer(
  urls: string[],
  onAttempt: (outcome: AttemptOutcome) => void,
  prefix = uniquePrefix(),
): Promise<Webhooks> {
  const parsed = parseAllowList(urls.map((u) => new URL(u).host).join(','));
  if ('bad' in parsed) throw new Error(parsed.bad);
  opened.push(() => deleteUnder(prefix));
  const hooks = await Webhooks.open({
    url: redisUrl(),
    prefix,
    secret: 'whsec-audit-0123456789',
    allowed: parsed.hosts,
    logger: { ...recordingLogger(), error: () => undefined },
    clock: systemClock,
    retry: { baseMs: 60_000, maxDelayMs: 60_000, giveUpAfterMs: 3_600_000 },
    attemptTimeoutMs: 3_000,
    onAttempt: (_type, outcome) => onAttempt(outcome),
  });
  opened.push(() => hooks.close());
  return hooks;
}

describe('webhook deliveries to several receivers', () => {
  it("reach a receiver that answers while another client's receiver hangs on its deliveries", async () => {
    const seen: string[] = [];
    const { promise: healthyReached, resolve: reachHealthy } = deferred();
    const hungUrl = await receiver(false, () => seen.push('hung receiver called'));
    const healthyUrl = await receiver(true, () => {
      seen.push('healthy receiver called');
      reachHealthy();
    });
    const hooks = await deliverer([hungUrl, healthyUrl], (outcome) => {
      if (outcome === 'retry') seen.push('an attempt to the hung receiver timed out');
    });
    // Eight questions of one client end (its receiver hangs), then one of another client.
    for (let n = 0; n < 8; n++) {
      const body = { id: `hung-${n}`, status: 'cancelled' };
      await hooks.enqueue({
        type: 'question.ended',
        resourceId: `hung-${n}`,
        url: hungUrl,
        body,
        client: 'a',
      });
    }
    const body = { id: 'ok-1', status: 'accepted' };
    await hooks.enqueue({ type: 'question.ended', resourceId: 'ok-1', url: healthyUrl, body, client: 'b' });
    await hooks.start();
    await healthyReached;
    const beforeHealthy = seen.slice(0, seen.indexOf('healthy receiver called'));
    expect(beforeHealthy.filter((s) => s.endsWith('timed out'))).toEqual([]);
  });
});

describe('webhook deliveries to one busy receiver', () => {
  it('run at most two attempts to it at once per replica; the others wait their turn without counting as attempts', async () => {
    const busy = await heldReceiver();
    const { promise: healthyReached, resolve: reachHealthy } = deferred();
    const healthyUrl = await serve((res) => {
      res.writeHead(200).end();
      reachHealthy();
    });
    const prefix = uniquePrefix();
    const hooks = await deliverer([busy.url, healthyUrl], () => undefined, prefix);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const resourceId = `busy-${n}`;
      const body = { id: resourceId, status: 'cancelled' };
      await hooks.enqueue({ type: 'question.ended', resourceId, url: busy.url, body, client: 'a' });
      ids.push(deliveryId('question.ended', resourceId));
    }
    const body = { id: 'ok-1', status: 'accepted' };
    await hooks.enqueue({ type: 'question.ended', resourceId: 'ok-1', url: healthyUrl, body, client: 'b' });
    const bull = { connection: { url: redisUrl() }, prefix: keys(prefix).bullPrefix };
    const queue = new Queue('webhooks', bull);
    const finished = new QueueEvents('webhooks', bull);
    opened.push(
      () => queue.close(),
      () => finished.close(),
    );
    await finished.waitUntilReady();
    await hooks.start();
    await Promise.all([healthyReached, busy.twoHeld]);
    expect(busy.received()).toBe(RECEIVER_CONCURRENCY);
    expect(await queue.getDelayedCount()).toBeGreaterThan(0);

    busy.release();
    for (const id of ids) {
      const job = await queue.getJob(id);
      if (!job) throw new Error(`no job ${id}`);
      await job.waitUntilFinished(finished);
    }
    const done = await Promise.all(ids.map((id) => queue.getJob(id)));
    expect(done.map((job) => job?.attemptsMade)).toEqual([1, 1, 1, 1, 1]);
    expect(done.some((job) => (job?.attemptsStarted ?? 0) > 1)).toBe(true);
  });
});

describe('the resolved address of an allowed host name', () => {
  it('may not be the instance metadata service on IPv6 (fd00:ec2::254), as it may not on IPv4', () => {
    const target = checkCallbackUrl('https://hooks.example.com/x', [{ host: 'hooks.example.com' }]);
    if (isRefusal(target)) throw new Error(target.reason);
    expect(checkAddress(target, '169.254.169.254')).toEqual(expect.stringMatching(/does not name/));
    expect(checkAddress(target, 'fd00:ec2::254')).toEqual(expect.stringMatching(/does not name/));
  });
});
