import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { clientIds, collector, newQuestion, openStore, rawRedis } from './helpers.js';

describe('inbox', () => {
  it('still delivers after its connection is killed, with nothing lost or repeated', async () => {
    const prefix = uniquePrefix();
    const holder = await openStore(prefix, 'holder-a');
    const answerer = await openStore(prefix, 'holder-b');
    const redis = rawRedis();
    const seen = collector<Question>();
    await holder.startInbox((q) => seen.push(q));

    const before = await holder.create(newQuestion());
    await answerer.finish(before.id, { action: 'decline' }, 'declined');
    await seen.next(1);

    const [inboxId, ...others] = await clientIds(redis, `${prefix}:inbox:holder-a`);
    expect(inboxId).toBeDefined();
    expect(others).toEqual([]);
    await redis.client('KILL', 'ID', inboxId ?? '');
    const during = await holder.create(newQuestion());
    await answerer.finish(during.id, { action: 'accept', content: { ok: true } }, 'answered');
    const after = await holder.create(newQuestion());
    await answerer.finish(after.id, { action: 'cancel' }, 'closed');

    expect((await seen.next(3)).map((q) => q.id)).toEqual([before.id, during.id, after.id]);
    const [reconnected] = await clientIds(redis, `${prefix}:inbox:holder-a`);
    expect(reconnected).not.toBe(inboxId);
  });
});
