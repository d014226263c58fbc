// What a finish queues to the holder's inbox: the ended record as one JSON field beside the question's id (one
// reply string for the holder to decode instead of two per field, issue #19 goals 2 and 3). A holder still
// reads the entries older replicas write (the record's fields, or only the id), and an entry whose JSON cannot be
// read is delivered from the question's hash instead of stalling the inbox.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { keys } from '../../src/redis/index.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis } from './helpers.js';

describe("the holder's inbox entry", () => {
  it('carries the ended record as JSON, its shared schema put back, beside the question id', async () => {
    const prefix = uniquePrefix();
    const [holder, other] = [await openStore(prefix, 'holder-a'), await openStore(prefix, 'holder-b')];
    const q = await holder.create(newQuestion());
    await other.finish(q.id, { action: 'accept', content: { ok: true } }, 'answered', 'U123');

    const entries = await rawRedis().xrange(keys(prefix).inbox('holder-a'), '-', '+');
    expect(entries).toHaveLength(1);
    const [, fields] = entries[0] ?? ['', []];
    expect(fields.filter((_, i) => i % 2 === 0)).toEqual(['id', 'r']);
    expect(fields[1]).toBe(q.id);
    expect(JSON.parse(fields[3] ?? '')).toMatchObject({
      id: q.id,
      state: 'accepted',
      outcome: '{"action":"accept","content":{"ok":true}}',
      reason: 'answered',
      endedBy: 'U123',
      holder: 'holder-a',
      requestedSchema: JSON.stringify(newQuestion().requestedSchema),
    });
  });

  it('is read in every form: JSON, the older fields or id alone, and unreadable JSON from the hash', async () => {
    const prefix = uniquePrefix();
    const [holder, other] = [await openStore(prefix, 'holder-a'), await openStore(prefix, 'holder-b')];
    const questions = await Promise.all([1, 2, 3, 4].map(() => holder.create(newQuestion())));
    const [byJson, byFields, byId, unreadable] = questions.map((q) => q.id) as [
      string,
      string,
      string,
      string,
    ];
    for (const id of questions.map((q) => q.id)) await other.finish(id, { action: 'decline' }, 'declined');
    const redis = rawRedis();
    const inbox = keys(prefix).inbox('holder-a');
    const record = await redis.hgetall(keys(prefix).question(byFields));
    await redis.del(inbox);
    await redis.xadd(inbox, '*', 'id', byJson, 'r', JSON.stringify(await asJson(redis, prefix, byJson)));
    await redis.xadd(inbox, '*', ...Object.entries(record).flat(), 'requestedSchema', '{"type":"object"}');
    await redis.xadd(inbox, '*', 'id', byId);
    await redis.xadd(inbox, '*', 'id', unreadable, 'r', '{"id": "cut off');

    const delivered = collector<Question>();
    await holder.startInbox((question) => delivered.push(question));
    const got = await delivered.next(4);
    expect(got.map((question) => [question.id, question.state])).toEqual([
      [byJson, 'declined'],
      [byFields, 'declined'],
      [byId, 'declined'],
      [unreadable, 'declined'],
    ]);
  });
});

/** The stored record of question `id` as the JSON object the finish script writes (schema put back). */
async function asJson(
  redis: ReturnType<typeof rawRedis>,
  prefix: string,
  id: string,
): Promise<Record<string, string>> {
  const record = await redis.hgetall(keys(prefix).question(id));
  return { ...record, requestedSchema: JSON.stringify(newQuestion().requestedSchema) };
}
