// The holder's inbox pipelines a batch's acknowledgement with its next read (inbox.ts). What breaks around it:
// Redis dropping the connection while both are out, acknowledgements that fail while the reads succeed, and
// stop() while one is unanswered. Each entry must be handed over once per process, none lost, and each deleted
// in the end without waiting for more traffic. Real Redis, through tcp-proxy.ts where the connection drops.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConnections, keys, type RedisClient } from '../../src/redis/index.js';
import type { Inbox } from '../../src/store/inbox.js';
import { withScripts } from '../../src/store/scripts.js';
import type { Question } from '../../src/relay/types.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { inboxOf, newQuestion, openStore, rawRedis, recordingLogger } from './helpers.js';
import { startProxy, type TcpProxy } from './tcp-proxy.js';

const inboxes: Inbox[] = [];
const prefixes: string[] = [];
const proxies: TcpProxy[] = [];
afterEach(async () => {
  await Promise.all(inboxes.splice(0).map((inbox) => inbox.stop()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(prefixes.splice(0).map((prefix) => deleteKeysUnder(redisUrl(), prefix)));
});

type AckArgs = Parameters<ReturnType<typeof withScripts>['inboxAck']>;

/** An inbox on its own blocking connection (to `url`), whose inboxAck the test may replace. */
async function reviewedInbox(url = redisUrl()) {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const logger = recordingLogger();
  const redis = withScripts(await new RedisConnections({ url }, logger).blocking('inbox-review'));
  const realAck = redis.inboxAck.bind(redis);
  const handed: Question[] = [];
  const inbox = inboxOf(prefix, 'holder-a', { redis, logger }, (question) => handed.push(question));
  inboxes.push(inbox);
  const holder = await openStore(prefix, 'holder-a');
  const answerer = await openStore(prefix, 'holder-b');
  /** A question of the holder's, ended by another replica: one entry in the holder's inbox. */
  const ended = async () => {
    const question = await holder.create(newQuestion());
    await answerer.finish(question.id, { action: 'accept', content: { ok: true } }, 'answered');
    return question.id;
  };
  const replaceAck = (ack: (real: typeof realAck, ...args: AckArgs) => Promise<unknown>) => {
    (redis as { inboxAck: unknown }).inboxAck = (...args: AckArgs) => ack(realAck, ...args);
  };
  const raw = rawRedis();
  const streamLength = () => raw.xlen(keys(prefix).inbox('holder-a'));
  return { prefix, redis, inbox, handed, ended, replaceAck, streamLength, logger };
}

/** Collects the process's unhandled rejections while a test runs. */
function unhandledRejections(): { seen: unknown[]; stop: () => void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => void process.off('unhandledRejection', listener) };
}

describe("the holder's inbox, its acknowledgement pipelined with its next read", () => {
  it('hands each entry over once when Redis drops the connection with both unanswered', async () => {
    const proxy = await startProxy(redisUrl());
    proxies.push(proxy);
    const { redis, inbox, handed, ended, streamLength } = await reviewedInbox(proxy.url);
    const realRead = redis.xread.bind(redis);
    let reads = 0;
    // The read right behind the first batch's acknowledgement: both written, then the connection reset.
    vi.spyOn(redis, 'xread').mockImplementation((...args: Parameters<RedisClient['xread']>) => {
      const read = realRead(...args);
      if (++reads === 2) proxy.reset();
      return read;
    });
    inbox.start();
    const first = await ended();
    await vi.waitFor(() => expect(reads).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    const second = await ended();
    await vi.waitFor(() => expect(handed.map((q) => q.id)).toEqual([first, second]), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await streamLength()).toBe(0), { timeout: 10_000 });
    expect(handed.map((q) => q.id)).toEqual([first, second]);
  });

  it('deletes an entry whose acknowledgement failed twice in a row, with no later entry to carry it', async () => {
    const { inbox, handed, ended, replaceAck, streamLength } = await reviewedInbox();
    let acks = 0;
    replaceAck((real, ...args) => (++acks <= 2 ? Promise.reject(new Error('BUSY')) : real(...args)));
    inbox.start();
    const only = await ended();
    await vi.waitFor(() => expect(acks).toBeGreaterThanOrEqual(2));
    await vi.waitFor(async () => expect(await streamLength()).toBe(0), { timeout: 8_000 });
    expect(handed.map((q) => q.id)).toEqual([only]);
  });

  it('stops while an acknowledgement is unanswered: no unhandled rejection, nothing handed twice or left', async () => {
    const { prefix, inbox, handed, ended, replaceAck, streamLength, logger } = await reviewedInbox();
    const held: (() => void)[] = [];
    replaceAck((real, ...args) => {
      const sent = real(...args);
      // Redis runs the script; its answer is held until the test lets it through, after stop().
      return new Promise((resolve, reject) => held.push(() => void sent.then(resolve, reject)));
    });
    const rejections = unhandledRejections();
    try {
      inbox.start();
      const only = await ended();
      await vi.waitFor(() => expect(held).toHaveLength(1));
      await inbox.stop();
      held.splice(0).forEach((answer) => answer());
      expect(handed.map((q) => q.id)).toEqual([only]);
      expect(await streamLength()).toBe(0);
      // A next process with this holder id finds nothing left to hand over.
      const next: Question[] = [];
      const again = inboxOf(prefix, 'holder-a', { redis: await reopened(), logger }, (q) => next.push(q));
      inboxes.push(again);
      again.start();
      await ended();
      await vi.waitFor(() => expect(next).toHaveLength(1));
      expect(next.map((q) => q.id)).not.toContain(only);
      expect(rejections.seen).toEqual([]);
    } finally {
      rejections.stop();
    }
  });
});

async function reopened() {
  return withScripts(
    await new RedisConnections({ url: redisUrl() }, recordingLogger()).blocking('inbox-review'),
  );
}
