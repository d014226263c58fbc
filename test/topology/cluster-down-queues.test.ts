// The BullMQ workers other than the timeouts' (cluster-down-timers.test.ts) across a short CLUSTERDOWN: the
// outbox's, the reminders' and the webhooks'. Each has work coming due while the cluster is down (a card post
// paced to a slot, a reminder, a delivery's retry), so its worker blocks briefly, its blocking read is refused
// past BullMQ's watchdog and the connection is made again while still down (held so, CLIENT LIST; at most 8 s,
// as a loaded machine can let ioredis give the read up first). Once the
// cluster is served again, that work is done once, and so is work queued during and after the outage.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { keys, OUTBOX_QUEUE, REMINDER_QUEUE, WEBHOOK_QUEUE } from '../../src/redis/index.js';
import { againWhileUnavailable } from '../../src/relay/while-unavailable.js';
import { classifySlackError, Outbox, slackHandler, type OutboxJob } from '../../src/slack/outbox/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { QuestionStore } from '../../src/store/index.js';
import { parseAllowList, Webhooks } from '../../src/webhooks/index.js';
import { quiet, standinClient } from '../slack/standin-client.js';
import { collector, newQuestion, recordingLogger } from '../store/helpers.js';
import { until } from '../support/until.js';
import {
  blockingName,
  downUntilBlockingReplaced,
  slotOf,
  STEP_WITHIN_MS,
  within,
} from './support/cluster-outage.js';
import { redisSetting } from './support/flows.js';
import { cli, type Server } from './support/servers.js';
import { startTwoMasters } from './support/two-masters.js';

const BOT_TOKEN = 'xoxb-cluster-down-queues';
const SECRET = 'whsec-cluster-down-0123456789';
/**
 * How far ahead the work due during the outage is, ms. The worker blocks until then, and BullMQ's watchdog drops
 * that read 1 s after its end: about 1.6 s into the outage, before ioredis gives up retrying the refused read
 * (2-2.5 s in: 16 tries, every 200 ms, and slot refreshes). Past that, an idle worker's read (5-10 s) is failed
 * by ioredis first, and BullMQ then retries it on the same connection, which never makes it again.
 */
const DUE_IN_MS = 700;
/**
 * Spacing of posts to one channel, ms: a channel's second post may go a burst's planned three quarters of an
 * interval early (pacing.ts), so it waits a quarter of this after the first: DUE_IN_MS.
 */
const CHANNEL_PACE_MS = 4 * DUE_IN_MS;
/** Each case's budget, ms: two outage steps (STEP_WITHIN_MS each) and the work after. */
const CASE_MS = 60_000;

let dir = '';
let nodes: [Server, Server];
let env: Record<string, string> = {};
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cluster-down-queues-'));
  nodes = await startTwoMasters(dir);
  env = { REDIS_CLUSTER_NODES: nodes.map((n) => `127.0.0.1:${n.port}`).join(',') };
}, 40_000);

afterAll(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await Promise.all(nodes.map((n) => n.kill()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Epoch ms on the cluster's clock (reminder times are dated by Redis TIME). */
async function redisNow(): Promise<number> {
  const [sec = '0', micro = '0'] = (await cli(nodes[0].port, 'TIME')).trim().split('\n');
  return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
}

function card(channel: string, text: string, key?: string): OutboxJob {
  return { method: 'chat.postMessage', channel, args: { text }, ...(key === undefined ? {} : { key }) };
}

describe('a Cluster down across a queue worker’s blocking read', () => {
  it(
    'posts each card once: paced into the outage, queued during it and after it',
    async () => {
      const prefix = 'down-outbox';
      const standin: SlackStandin = await startSlackStandin({ botToken: BOT_TOKEN });
      closing.push(() => standin.close());
      const setting = redisSetting(env, prefix);
      const outbox = await Outbox.open({ ...setting, logger: quiet, channelPaceMs: CHANNEL_PACE_MS });
      closing.push(() => outbox.close());
      const client = standinClient(standin, BOT_TOKEN);
      await outbox.start(slackHandler(singleWorkspace(client)), classifySlackError);
      const dm = standin.dmChannelOf('U1');
      expect(await outbox.send(card(dm, 'first'))).toMatchObject({ ok: true });
      // The channel's next post slot is DUE_IN_MS on: this one is delayed to it and comes due while down.
      let queued = (): void => undefined;
      const inRedis = new Promise<void>((resolve) => (queued = resolve));
      const paced = outbox.send(card(dm, 'paced'), queued);
      await inRedis;
      // As the Slack side sends a card (surface.ts sendCard): its key makes every try one job.
      const again = { clock: systemClock, until: Date.now() + CASE_MS };
      let during: Promise<unknown> = Promise.resolve();
      const sendDuring = (): void => {
        const other = standin.dmChannelOf('U2');
        during = againWhileUnavailable(() => outbox.send(card(other, 'during', 'card-during')), again);
      };
      const name = blockingName(keys(prefix).bullPrefix, OUTBOX_QUEUE);
      await downUntilBlockingReplaced(nodes, '{bull}', name, { whileDown: sendDuring });

      expect(await within('the paced card was posted', paced)).toMatchObject({ ok: true, channel: dm });
      expect(await within('the card queued while down was posted', during)).toMatchObject({ ok: true });
      const after = outbox.send(card(dm, 'after'));
      expect(await within('the card queued after was posted', after)).toMatchObject({
        ok: true,
        channel: dm,
      });
      const posts = standin.calls.filter((c) => c.method === 'chat.postMessage');
      // The paced card and the one queued while down both go once the cluster is back, in either order.
      expect(posts.map((c) => [c.args.text, c.ok]).sort()).toEqual([
        ['after', true],
        ['during', true],
        ['first', true],
        ['paced', true],
      ]);
    },
    CASE_MS,
  );

  it(
    'fires a reminder due during the outage once, and one due after it',
    async () => {
      const prefix = 'down-reminders';
      const store = await QuestionStore.open({
        ...redisSetting(env, prefix),
        holderId: 'h1',
        logger: recordingLogger(),
      });
      closing.push(() => store.close());
      const fired = collector<[string, number]>();
      await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
      const dueAt = (await redisNow()) + DUE_IN_MS;
      const due = await store.create(newQuestion(), { remindAt: [dueAt] });
      await store.attachCards(due.id, [{ channel: 'D1', ts: '1.000001' }]);
      const worker = keys(prefix).connectionName(REMINDER_QUEUE, 'h1');
      const name = blockingName(keys(prefix).bullPrefix, REMINDER_QUEUE, worker);
      await downUntilBlockingReplaced(nodes, '{bull}', name);

      expect(await within('the reminder due while down fired', fired.next(1))).toEqual([[due.id, dueAt]]);
      const afterAt = (await redisNow()) + 200;
      const after = await store.create(newQuestion(), { remindAt: [afterAt] });
      await store.attachCards(after.id, [{ channel: 'D1', ts: '1.000002' }]);
      expect(await within('the reminder due after fired', fired.next(2))).toEqual([
        [due.id, dueAt],
        [after.id, afterAt],
      ]);
    },
    CASE_MS,
  );

  it(
    'delivers a delivery retried across the outage once, signed, and one queued after it',
    async () => {
      const prefix = 'down-webhooks';
      const rx = await receiver([500, 200]);
      closing.push(() => rx.close());
      const allowed = parseAllowList(`127.0.0.1:${rx.port}`);
      if ('bad' in allowed) throw new Error(allowed.bad);
      const hooks = await Webhooks.open({
        ...redisSetting(env, prefix),
        secret: SECRET,
        allowed: allowed.hosts,
        logger: { ...quiet, error: () => undefined },
        // No jitter: the retry comes DUE_IN_MS after the first attempt's 500, while the cluster is down.
        clock: { now: () => Date.now(), random: () => 0 },
        retry: { baseMs: DUE_IN_MS, maxDelayMs: DUE_IN_MS, giveUpAfterMs: 60_000 },
      });
      closing.push(() => hooks.close());
      await hooks.start();
      const body = { id: 'q-across', status: 'accepted' };
      const across = await hooks.enqueue({
        type: 'question.ended',
        resourceId: 'q-across',
        url: rx.url,
        body,
        client: 'c1',
      });
      await waitDelayed(prefix, across);
      const name = blockingName(keys(prefix).bullPrefix, WEBHOOK_QUEUE);
      await downUntilBlockingReplaced(nodes, '{bull}', name);

      await within('the delivery retried across the outage was made', rx.requests(2));
      const after = await hooks.enqueue({
        type: 'question.ended',
        resourceId: 'q-after',
        url: rx.url,
        body: { id: 'q-after', status: 'declined' },
        client: 'c1',
      });
      await within('the delivery queued after was made', rx.requests(3));
      expect(rx.received.map((r) => [r.headers['x-elicit-relay-delivery'], signed(r)])).toEqual([
        [across, true],
        [across, true],
        [after, true],
      ]);
      expect(JSON.parse(rx.received[1]?.body ?? '')).toEqual({ ...body, type: 'question.ended' });
    },
    CASE_MS,
  );
});

/** Resolves once the delivery `id` waits in the delayed set for its retry (after its first attempt failed). */
async function waitDelayed(prefix: string, id: string): Promise<void> {
  const { owner } = await slotOf(nodes, '{bull}');
  const delayed = `${keys(prefix).bullPrefix}:${WEBHOOK_QUEUE}:delayed`;
  await until('the delivery waits for its retry', STEP_WITHIN_MS, async () => {
    return (await cli(owner.port, 'ZSCORE', delayed, id)).trim() !== '';
  });
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The receiver's own check of a delivery's signature: HMAC-SHA256 over "v1:<timestamp>:<body>". */
function signed(r: Received): boolean {
  const timestamp = String(r.headers['x-elicit-relay-timestamp']);
  const given = Buffer.from(String(r.headers['x-elicit-relay-signature']));
  const mac = createHmac('sha256', SECRET).update(`v1:${timestamp}:${r.body}`).digest('hex');
  const expected = Buffer.from(`v1=${mac}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A receiver answering each request with the next of `statuses` (the last one repeats). */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(statuses[Math.min(received.length, statuses.length) - 1] ?? 200).end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  const { port } = address;
  return {
    port,
    received,
    url: `http://127.0.0.1:${port}/hook`,
    requests: (count: number): Promise<void> =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ count, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
