// An inbox batch whose acknowledgement (the entries' deletion) failed stays in the stream. When the inbox reads
// from the start again after a later batch is acknowledged, those entries are deleted with it, not handed over
// a second time in the same process (each end would reach its waiting call, the relay and the rounds twice).
import { afterEach, describe, expect, it } from 'vitest';
import { RedisConnections } from '../../src/redis/index.js';
import { INBOX_BLOCK_MS, type Inbox } from '../../src/store/inbox.js';
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

describe('an inbox whose acknowledgement of a batch failed once', () => {
  it('does not hand the batch over again in the same process', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const logger = recordingLogger();
    const redis = withScripts(
      await new RedisConnections({ url: redisUrl() }, logger).blocking('inbox-review'),
    );
    // The first acknowledgement fails (a dropped connection, Redis busy); the later ones go through.
    const realAck = redis.inboxAck.bind(redis);
    let acks = 0;
    (redis as { inboxAck: unknown }).inboxAck = (...args: Parameters<typeof realAck>) =>
      ++acks === 1 ? Promise.reject(new Error('connection lost')) : realAck(...args);
    const handed: Question[] = [];
    const inbox = inboxOf(prefix, 'holder-a', { redis, logger }, (question) => handed.push(question));
    inboxes.push(inbox);
    inbox.start();
    const holder = await openStore(prefix, 'holder-a');
    const answerer = await openStore(prefix, 'holder-b');
    const question = await holder.create(newQuestion());
    await answerer.finish(question.id, { action: 'decline' }, 'declined');
    while (acks === 0) await new Promise((r) => setTimeout(r, 20));
    expect(logger.logged.map((l) => l.msg)).toContain(
      'inbox: ack failed; the entries will be re-delivered after a restart',
    );
    // A later end: its batch is acknowledged, and the inbox reads from the stream's beginning again.
    const later = await holder.create(newQuestion());
    await answerer.finish(later.id, { action: 'decline' }, 'declined');
    while (acks < 2) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, INBOX_BLOCK_MS + 500));
    expect(handed.map((q) => q.id)).toEqual([question.id, later.id]);
  });
});
