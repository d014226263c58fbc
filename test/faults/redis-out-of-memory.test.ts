// Redis past its maxmemory (`noeviction`, as the README asks) answers PING and refuses every write with OOM. The
// bot runs in-process against the Slack stand-in and a private redis-server with a small maxmemory, which the test
// pushes past its limit with a key of its own. A person who presses Send is told the answer was NOT saved (Redis
// refused the finish script before its first write), the form kept with what they typed, not that it "may not
// have been" saved; a Decline is told it was NOT recorded. /readyz stays 200 (every replica shares the Redis) but
// says `"redis":"oom"`, the metrics and a warn line say so, and once memory is freed the same Send relays the answer.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { parseSamples, valueOf } from '../support/prometheus.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { openForm, startHarness, type Harness } from '../system/harness.js';
import { newQuestion, openStore } from '../store/helpers.js';
import { Records } from './support/records.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

const NOT_SAVED =
  'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.';
const NOT_RECORDED = 'That was NOT recorded (a temporary problem on our side). Please try again in a moment.';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};
/** How far past maxmemory the fill key takes Redis, in bytes: well clear of the limit, so no write slips in. */
const PAST_LIMIT_BYTES = 4 * 1024 * 1024;

let redis: PrivateRedis;
let raw: Redis;
let h: Harness;
let records: Records;
const logs = captureLogs('debug');
printLogsOnFailure(logs);

beforeAll(async () => {
  redis = await startPrivateRedis({ aof: false, maxmemory: '32mb' });
  raw = new Redis(redis.url);
  h = await startHarness({ redisUrl: redis.url, logger: logs.logger });
  records = new Records(redis.url, h.prefix);
});

afterAll(async () => {
  records.close();
  await h.close();
  raw.disconnect();
  await redis.stop();
});

/** used_memory and maxmemory as INFO memory reports them, in bytes (read here, not by the bot's own parser). */
async function memory(): Promise<{ usedBytes: number; maxBytes: number }> {
  const info = await raw.info('memory');
  const field = (name: string): number => Number(new RegExp(`^${name}:(\\d+)\\r?$`, 'm').exec(info)?.[1]);
  return { usedBytes: field('used_memory'), maxBytes: field('maxmemory') };
}

/**
 * Takes Redis PAST_LIMIT_BYTES past its maxmemory with one key of the test's own: SETRANGE at that offset is one
 * small command, allowed while Redis is below its limit, that allocates the whole string.
 */
async function fillPastLimit(key: string): Promise<void> {
  const { usedBytes, maxBytes } = await memory();
  await raw.setrange(key, maxBytes - usedBytes + PAST_LIMIT_BYTES, 'x');
  const after = await memory();
  expect(after.usedBytes).toBeGreaterThan(after.maxBytes);
}

async function readyz(): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${h.relay.port}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function scraped(name: string): Promise<number | undefined> {
  const res = await fetch(`http://127.0.0.1:${h.relay.port}/metrics`);
  return valueOf(parseSamples(await res.text()), name);
}

describe('Redis out of memory', () => {
  it("refuses the store's finish and draft writes as redis_out_of_memory, writing nothing", async () => {
    const store = await openStore(`${h.prefix}-store`, 'holder-oom', { url: redis.url });
    const question = await store.create(newQuestion());
    const fill = `${h.prefix}:oom-fill-store`;
    await fillPastLimit(fill);
    try {
      const draft = { page: 0, answers: { ok: true }, reviewing: false };
      await expect(store.saveDraft(question.id, 'U123', draft)).rejects.toMatchObject({
        name: 'StoreError',
        code: 'redis_out_of_memory',
      });
      await expect(
        store.finish(question.id, { action: 'accept', content: { ok: true } }, 'answered', 'U123'),
      ).rejects.toMatchObject({ name: 'StoreError', code: 'redis_out_of_memory' });
      expect((await store.get(question.id))?.state).toBe('pending');
      expect(await store.draft(question.id, 'U123')).toBeUndefined();
    } finally {
      await raw.del(fill);
    }
  });

  it('tells a person who sends or declines that it was NOT saved, shows it on /readyz, metrics and log, and relays the answer once memory is freed', async () => {
    const card = await h.ask('U1', SCHEMA);
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    const viewId = await openForm(h, 'U1', card);
    const view = h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] };
    const block = view.blocks.find((b) => b.type === 'input')?.block_id ?? '';
    expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, redis: 'ok' } });

    const fill = `${h.prefix}:oom-fill`;
    await fillPastLimit(fill);
    const sent = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expect(sent.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    expect(h.standin.openViews('U1').map((v) => v.id)).toEqual([viewId]);
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    await h.standin.waitForCall('response_url', (c) => JSON.stringify(c.args).includes(NOT_RECORDED));
    expect((await records.question(id)).state).toBe('pending');

    expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, redis: 'oom' } });
    const warned = await logs.waitFor((l) => l.level === 40 && /past its maxmemory/.test(String(l.msg)));
    expect(warned).toMatchObject({ maxBytes: 32 * 1024 * 1024 });
    expect(await scraped('elicit_relay_redis_out_of_memory')).toBe(1);
    expect(await scraped('elicit_relay_redis_up')).toBe(1);
    expect(await scraped('elicit_relay_redis_memory_max_bytes')).toBe(32 * 1024 * 1024);

    await raw.del(fill);
    expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, redis: 'ok' } });
    await logs.waitFor((l) => l.level === 30 && /below its maxmemory again/.test(String(l.msg)));
    expect(await scraped('elicit_relay_redis_out_of_memory')).toBe(0);
    const again = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expect(again.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { name: 'Ada' } });
  }, 60_000);
});
