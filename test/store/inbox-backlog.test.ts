// A holder's inbox keeps every entry it has not read, however far behind it falls: an outcome trimmed unread
// reaches its waiting MCP request only at the question's deadline (the relay's backstop), so a person's answer
// would wait minutes behind a burst of ends. An unread entry goes only once it is older than the retention, when
// the record it names has expired as well.
import { describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis } from './helpers.js';

/** More unread entries than the inbox's old length cap (about 10,000) kept. */
const BACKLOG = 10_500;

/** `count` calls of `call`, 100 at a time, their results in order. */
async function inBatches<T>(count: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += 100) {
    const size = Math.min(100, count - start);
    results.push(...(await Promise.all(Array.from({ length: size }, (_, i) => call(start + i)))));
  }
  return results;
}

describe("a holder's inbox", () => {
  it('hands over every outcome of a backlog larger than the old length cap, none trimmed unread', async () => {
    const prefix = uniquePrefix();
    const [holder, other] = [await openStore(prefix, 'holder-a'), await openStore(prefix, 'holder-b')];
    const ids = await inBatches(BACKLOG, async () => (await holder.create(newQuestion())).id);
    // Every question ends while the holder reads nothing yet (its inbox starts afterwards).
    await inBatches(BACKLOG, (i) => other.finish(ids[i] ?? '', { action: 'decline' }, 'declined'));
    expect(await rawRedis().xlen(keys(prefix).inbox('holder-a'))).toBe(BACKLOG);

    const delivered = collector<string>();
    await holder.startInbox((question) => delivered.push(question.id));
    const got = await delivered.next(BACKLOG);
    expect(got).toHaveLength(BACKLOG);
    expect(new Set(got)).toEqual(new Set(ids));
  });

  it('drops an unread entry once it is older than the retention, and keeps a younger one', async () => {
    const prefix = uniquePrefix();
    const retentionSec = 600;
    const [holder, other] = [
      await openStore(prefix, 'holder-a', { retentionSec }),
      await openStore(prefix, 'holder-b', { retentionSec }),
    ];
    const redis = rawRedis();
    const inbox = keys(prefix).inbox('holder-a');
    const [seconds, micros] = await redis.time();
    const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await redis.xadd(inbox, `${nowMs - retentionSec * 1000 - 60_000}-0`, 'id', 'older-than-retention');
    await redis.xadd(inbox, `${nowMs - retentionSec * 1000 + 60_000}-0`, 'id', 'within-retention');

    const q = await holder.create(newQuestion());
    await other.finish(q.id, { action: 'decline' }, 'declined');
    const named = (await redis.xrange(inbox, '-', '+')).map(([, fields]) => fields[1]);
    expect(named).toEqual(['within-retention', q.id]);
  });
});
