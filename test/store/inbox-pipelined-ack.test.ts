// The holder's inbox sends a batch's acknowledgement and its next read together: the read goes out while the
// acknowledgement is still on its way (one round trip per batch instead of two), and, since Redis runs one
// connection's commands in order, it sees the stream as the acknowledgement left it: nothing handed over twice.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConnections, keys } from '../../src/redis/index.js';
import type { Inbox } from '../../src/store/inbox.js';
import { withScripts } from '../../src/store/scripts.js';
import type { Question } from '../../src/relay/types.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { inboxOf, newQuestion, openStore, recordingLogger } from './helpers.js';

const inboxes: Inbox[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(inboxes.splice(0).map((inbox) => inbox.stop()));
  await Promise.all(prefixes.splice(0).map((prefix) => deleteKeysUnder(redisUrl(), prefix)));
});

/** An inbox on its own connection whose acknowledgements are sent at once but answered only on release(). */
async function heldAckInbox(prefix: string, handed: Question[]) {
  const logger = recordingLogger();
  const redis = withScripts(await new RedisConnections({ url: redisUrl() }, logger).blocking('inbox-review'));
  const realAck = redis.inboxAck.bind(redis);
  const held: (() => void)[] = [];
  (redis as { inboxAck: unknown }).inboxAck = (...args: Parameters<typeof realAck>) => {
    const sent = realAck(...args);
    return new Promise((resolve, reject) => held.push(() => void sent.then(resolve, reject)));
  };
  const reads = vi.spyOn(redis, 'xread');
  const inbox = inboxOf(prefix, 'holder-a', { redis, logger }, (question) => handed.push(question));
  inboxes.push(inbox);
  return { inbox, reads, held, logger, release: () => held.splice(0).forEach((answer) => answer()) };
}

describe("the holder's inbox", () => {
  it('reads the next batch while the last batch is still being acknowledged, and hands nothing over twice', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const handed: Question[] = [];
    const { inbox, reads, held, release, logger } = await heldAckInbox(prefix, handed);
    inbox.start();
    const holder = await openStore(prefix, 'holder-a');
    const answerer = await openStore(prefix, 'holder-b');
    const first = await holder.create(newQuestion());
    // Carded before the answer: its content goes at the acknowledgement (scripts.ts INBOX_ACK_LUA).
    await holder.attachCards(first.id, [{ channel: 'D1', ts: '1.000' }]);
    await answerer.finish(first.id, { action: 'accept', content: { name: 'Ada' } }, 'answered');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // The acknowledgement is unanswered, and the next read is already out.
    await vi.waitFor(() => expect(reads).toHaveBeenCalledTimes(2));
    release();
    const second = await holder.create(newQuestion());
    await answerer.finish(second.id, { action: 'decline' }, 'declined');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    release();
    await vi.waitFor(async () => {
      const redis = await new RedisConnections({ url: redisUrl() }, logger).command('inbox-check');
      try {
        expect(await redis.xlen(keys(prefix).inbox('holder-a'))).toBe(0);
        // The accepted answer's content was dropped once handed over.
        expect(await redis.hget(keys(prefix).question(first.id), 'outcome')).toContain('contentDropped');
      } finally {
        redis.disconnect();
      }
    });
    expect(handed.map((q) => q.id)).toEqual([first.id, second.id]);
    await Promise.all([holder.close(), answerer.close()]);
  });
});
