// A requestedSchema is stored once for every question that has it (issue #19 goal 5): the record names it by
// content hash, every read puts it back, it outlives every record that names it, and records written before
// (the schema inline) still read.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { keys } from '../../src/redis/index.js';
import { toHash } from '../../src/store/record.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, scanAll } from './helpers.js';

const schema = { type: 'object', properties: { name: { type: 'string', title: 'Full name' } } };

describe('shared schemas', () => {
  it('stores a schema many questions share once, and every read returns it whole', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const delivered = collector<Question>();
    await store.startInbox((q) => delivered.push(q));
    const [a, b] = [
      await store.create(newQuestion({ requestedSchema: schema })),
      await store.create(newQuestion({ requestedSchema: schema })),
    ];

    const redis = rawRedis();
    expect(await scanAll(redis, `${prefix}:{q}:schema:*`)).toHaveLength(1);
    const record = await redis.hgetall(keys(prefix).question(a.id));
    expect(record).not.toHaveProperty('requestedSchema');
    expect(record.schemaRef).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await store.get(a.id))?.requestedSchema).toEqual(schema);
    expect((await store.pendingFor('U123')).map((q) => q.requestedSchema)).toEqual([schema, schema]);

    const won = await store.finish(b.id, { action: 'accept', content: { name: 'Ada' } }, 'answered');
    expect(won).toMatchObject({ won: true, question: { requestedSchema: schema } });
    const lost = await store.finish(b.id, { action: 'cancel' }, 'timed_out');
    expect(lost).toMatchObject({ won: false, question: { requestedSchema: schema } });
    const [outcome] = await delivered.next(1);
    expect(outcome).toMatchObject({ id: b.id, requestedSchema: schema, state: 'accepted' });
  });

  it('keeps the schema at least as long as any record that names it, before and after its end', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a', { retentionSec: 600 });
    const redis = rawRedis();
    const short = await store.create(newQuestion({ requestedSchema: schema, timeoutMs: 1_000 }));
    const [schemaKey = ''] = await scanAll(redis, `${prefix}:{q}:schema:*`);
    const long = await store.create(newQuestion({ requestedSchema: schema, timeoutMs: 900_000 }));
    const ttlOf = (id: string) => redis.pttl(keys(prefix).question(id));
    // The second, longer-lived question pushed the schema's expiry past its own record's.
    expect(await redis.pttl(schemaKey)).toBeGreaterThanOrEqual(await ttlOf(long.id));

    await store.create(newQuestion({ requestedSchema: schema, timeoutMs: 1_000 }));
    expect(await redis.pttl(schemaKey)).toBeGreaterThanOrEqual(await ttlOf(long.id));

    // Ending a question gives its record retentionSec from now; the schema's expiry never drops below it.
    await redis.pexpire(schemaKey, 1_000);
    await store.finish(short.id, { action: 'decline' }, 'declined');
    expect(await redis.pttl(schemaKey)).toBeGreaterThanOrEqual(await ttlOf(short.id));
    expect((await store.get(short.id))?.requestedSchema).toEqual(schema);
  });

  it('reads a record written with its schema inline, as records were before schemas were shared', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const old: Question = {
      ...newQuestion({ requestedSchema: schema }),
      id: 'old-format-question',
      state: 'pending',
      holder: 'holder-a',
      createdAt: Date.now(),
      deadline: Date.now() + 60_000,
    };
    await redis.hset(keys(prefix).question(old.id), toHash(old));
    await redis.zadd(keys(prefix).user(old.userId), old.deadline, old.id);

    expect(await store.get(old.id)).toEqual(old);
    expect(await store.pendingFor(old.userId)).toEqual([old]);
    const won = await store.finish(old.id, { action: 'decline' }, 'declined');
    expect(won).toMatchObject({ won: true, question: { requestedSchema: schema, state: 'declined' } });
  });

  it('keeps a URL-mode question’s null schema inline, with nothing shared', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const url = { url: 'https://example.com/connect', elicitationId: 'e1' };
    const q = await store.create(newQuestion({ requestedSchema: null, url }));
    expect(await scanAll(rawRedis(), `${prefix}:{q}:schema:*`)).toEqual([]);
    expect(await store.get(q.id)).toMatchObject({ requestedSchema: null, url });
  });
});
