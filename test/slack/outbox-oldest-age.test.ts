// elicit_relay_outbox_oldest_age_seconds (README Metrics: "Card posts and updates not yet done, across replicas,
// and the oldest one's age"; ops/prometheus/alerts.yml ElicitRelayOutboxBacklog fires when it passes 60 s) is
// read from Outbox.backlog().oldestAt: when the OLDEST job still not done was queued, whatever the order of the
// state it waits in (the delayed set is ordered by due time), read a bounded number of jobs at a time
// (src/slack/outbox/backlog.ts).
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { keys, OUTBOX_QUEUE } from '../../src/redis/index.js';
import { oldestQueuedAt } from '../../src/slack/outbox/backlog.js';
import { Outbox, type Classified, type OutboxHandler, type OutboxJob } from '../../src/slack/outbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { recordingLogger } from '../store/helpers.js';
import { until } from '../support/until.js';

class SlackSaid extends Error {
  constructor(readonly classified: Classified) {
    super(classified.error);
  }
}
const classify = (err: unknown): Classified =>
  err instanceof SlackSaid ? err.classified : { retry: false, error: 'unexpected' };

/** What each test opened, closed in reverse, then the keys under its prefixes deleted. */
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const post = (channel: string, text: string): OutboxJob => ({
  method: 'chat.postMessage',
  channel,
  args: { text },
});

describe('outbox oldest age', () => {
  it(
    'names the age of the oldest card still waiting, not of the one due soonest',
    { timeout: 30_000 },
    async () => {
      // Channel C1: Slack answers ratelimited with Retry-After 30 s, so its card waits (a delayed job due late).
      // Channel C2: posts succeed but are paced 4 s apart, so its second card waits too (due soon).
      const runs: string[] = [];
      const handler: OutboxHandler = (job) => {
        runs.push(job.channel ?? '');
        if (job.channel === 'C1')
          return Promise.reject(new SlackSaid({ retry: true, retryAfterMs: 30_000, error: 'ratelimited' }));
        return Promise.resolve({ ts: `1.${runs.length}`, channel: job.channel ?? '' });
      };
      const prefix = uniquePrefix();
      closing.push(() => deleteKeysUnder(redisUrl(), prefix));
      const outbox = await Outbox.open({
        url: redisUrl(),
        prefix,
        logger: recordingLogger(),
        channelPaceMs: 4_000,
      });
      closing.push(() => outbox.close());
      await outbox.start(handler, classify);

      const firstQueuedAt = Date.now();
      void outbox.send(post('C1', 'old card')).catch(() => undefined);
      await until('the C1 card was tried once and rate-limited', 5_000, () =>
        Promise.resolve(runs.includes('C1')),
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await outbox.send(post('C2', 'first'));
      void outbox.send(post('C2', 'second, paced')).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const backlog = await outbox.backlog();
      expect(backlog.depth).toBe(2);
      const now = Date.now();
      const reportedAgeSec = (now - (backlog.oldestAt ?? now)) / 1000;
      const trueAgeSec = (now - firstQueuedAt) / 1000;
      expect(
        reportedAgeSec,
        `the oldest waiting card (rate-limited C1) is ~${trueAgeSec.toFixed(1)} s old; ` +
          `elicit_relay_outbox_oldest_age_seconds would read ${reportedAgeSec.toFixed(1)} s`,
      ).toBeGreaterThanOrEqual(trueAgeSec - 0.5);
    },
  );

  it('finds the oldest anywhere in the delayed set up to the cap, and reads only the set’s ends past it', async () => {
    const prefix = uniquePrefix();
    closing.push(() => deleteKeysUnder(redisUrl(), prefix));
    const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    closing.push(() => connection.quit());
    const queue = new Queue(OUTBOX_QUEUE, { connection, prefix: keys(prefix).bullPrefix });
    closing.push(() => queue.close());
    // 21 delayed jobs (no worker: they stay there), job k queued k s after `base`, due in order 1..20 with the
    // oldest (k = 0) due in the middle of them, so neither end of the set.
    const base = Date.now() - 60_000;
    const dueAt = (k: number): number => base + 1_000_000 + (k === 0 ? 10_500 : k * 1_000);
    await queue.addBulk(
      Array.from({ length: 21 }, (_, k) => ({
        name: 'chat.postMessage',
        data: { channel: `C${k}` },
        opts: { jobId: `j${k}`, timestamp: base + k * 1_000, delay: dueAt(k) - (base + k * 1_000) },
      })),
    );
    expect(await oldestQueuedAt(connection, queue)).toBe(base);
    // Cap 10: the 5 due first (k 1-5) and the 5 due last (k 16-20) are read, so the oldest of those, k = 1.
    expect(await oldestQueuedAt(connection, queue, 10)).toBe(base + 1_000);
  });
});
