// The finish script reads the question's record once (issue #19 goal 2: Redis's CPU per lifecycle): every field
// it needs and the ended record it returns and queues to the holder's inbox come from one HGETALL.
import { describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { uniquePrefix } from '../setup/context.js';
import { monitored, newQuestion, openStore, rawRedis } from './helpers.js';

const READS = ['hget', 'hgetall', 'hmget', 'hkeys', 'hexists', 'exists', 'hvals'];

describe('finish', () => {
  it('reads the record once, and still drops every draft and returns the ended record', async () => {
    const prefix = uniquePrefix();
    const [holder, other] = [await openStore(prefix, 'holder-a'), await openStore(prefix, 'holder-b')];
    const q = await holder.create(newQuestion());
    const draft = { page: 0, answers: { ok: true }, reviewing: false };
    await other.saveDraft(q.id, 'U123', draft);
    await other.saveDraft(q.id, 'U456', draft);
    const key = keys(prefix).question(q.id);
    const probe = rawRedis();

    let result: Awaited<ReturnType<typeof other.finish>> | undefined;
    const sent = await monitored(probe, async () => {
      result = await other.finish(q.id, { action: 'decline' }, 'declined', 'U123');
    });

    const reads = sent.filter(({ args }) => READS.includes(args[0]?.toLowerCase() ?? '') && args[1] === key);
    expect(reads.map(({ args }) => args[0]?.toLowerCase())).toEqual(['hgetall']);
    expect(result).toMatchObject({
      won: true,
      question: { id: q.id, state: 'declined', reason: 'declined', endedBy: 'U123', holder: 'holder-a' },
    });
    const fields = await probe.hkeys(key);
    expect(fields.filter((f) => f.startsWith('draft:'))).toEqual([]);
    expect(await probe.hget(key, 'state')).toBe('declined');
  });
});
