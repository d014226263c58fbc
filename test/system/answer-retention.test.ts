// README "Retention": an accepted answer's content is dropped as soon as the holder has relayed it. Nothing
// else in Redis may keep it either: not the question record, not the outbox job that updated the card.
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_QUEUE, keys } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const ANSWER = 'Quokka-Zebra-7781';
const SCHEMA = {
  type: 'object',
  properties: { codename: { type: 'string', title: 'Codename' } },
  required: ['codename'],
} as const;

/** Every key under `prefix` whose value (of whatever type) contains `text`. */
async function keysContaining(redis: Redis, prefix: string, text: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', '500');
    cursor = next;
    for (const key of batch) {
      if (key.includes(text) || JSON.stringify(await valueOf(redis, key)).includes(text)) found.push(key);
    }
  } while (cursor !== '0');
  return found;
}

async function valueOf(redis: Redis, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case 'string':
      return redis.get(key);
    case 'hash':
      return redis.hgetall(key);
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, '0', '-1');
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return null;
  }
}

describe('answer content in Redis', () => {
  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    h = await startHarness();
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it('is nowhere under the prefix once the answer is relayed and the card update is sent', async () => {
    const card = await h.ask('U1', SCHEMA);
    const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks) ?? '';
    const click = await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_respond' });
    expect(click.status).toBe(200);
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U1').length > 0, 10_000);
    const [view] = h.standin.openViews('U1');
    const blockId = (view?.view as { blocks: { type: string; block_id: string }[] }).blocks.find(
      (b) => b.type === 'input',
    )?.block_id;
    const submit = await h.driver.submitView({
      userId: 'U1',
      viewId: view?.id ?? '',
      values: { [blockId ?? '']: ANSWER },
    });
    expect(submit.status).toBe(200);
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { codename: ANSWER } });
    const updated = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
    // The card shows the answer (showAnswers), so the job that sent it carried it.
    expect(JSON.stringify(updated.args.blocks)).toContain(ANSWER);

    // Wait until the outbox has settled that job, as the surface's send() does.
    const bull = { connection: redis.duplicate(), prefix: keys(h.prefix).bullPrefix };
    const queue = new Queue(OUTBOX_QUEUE, bull);
    const events = new QueueEvents(OUTBOX_QUEUE, {
      ...bull,
      connection: redis.duplicate({ maxRetriesPerRequest: null }),
    });
    try {
      await events.waitUntilReady();
      await (await queue.getJob(`ended-${questionId}`))?.waitUntilFinished(events, 10_000);
      expect(await keysContaining(redis, h.prefix, ANSWER)).toEqual([]);
    } finally {
      await events.close();
      await queue.close();
    }
  });
});
