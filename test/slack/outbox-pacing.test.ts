// How the outbox plans a channel's posts (src/slack/outbox/pacing.ts): Slack allows one post per second per
// channel with short bursts >1 (blocks/slack-rate-limits.ts: a burst of 2), and three quarters of that burst
// are planned, so a DM's second card waits a quarter of an interval, not a whole one. Upper bounds only: Redis's clock moves on
// between the reservations, which only shortens the waits.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_PER_CHANNEL } from '../../blocks/slack-rate-limits.js';
import { keys } from '../../src/redis/index.js';
import { Pacer } from '../../src/slack/outbox/pacing.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const CHANNEL = 'D0PACED';
const INTERVAL_MS = POST_PER_CHANNEL.intervalMs;

let redis: Redis;
const k = keys(uniquePrefix());

beforeAll(() => {
  redis = new Redis(redisUrl());
});
afterAll(async () => {
  await redis.del(k.pace(CHANNEL));
  redis.disconnect();
});

describe("a channel's posts", () => {
  it('go the second a quarter of an interval after the first, then one per interval', async () => {
    const pacer = new Pacer(redis, k);
    const pace = pacer.paceOf({ method: 'chat.postMessage', channel: CHANNEL });
    if (!pace) throw new Error('chat.postMessage is not paced');
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) waits.push(await pacer.reserve(pace, 0));
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBeLessThanOrEqual(INTERVAL_MS / 4);
    expect(waits[2]).toBeLessThanOrEqual(INTERVAL_MS * 1.25);
  });
});
