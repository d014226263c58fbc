import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { INBOX_STALL_MS } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, recordingLogger } from './helpers.js';
import { startProxy, type TcpProxy } from './tcp-proxy.js';

let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
});

describe('Redis outage', () => {
  it('fails create promptly with redis_unavailable instead of buffering, and works again once Redis is back', async () => {
    proxy = await startProxy(redisUrl());
    const store = await openStore(uniquePrefix(), 'holder-a', { url: proxy.url });
    await store.create(newQuestion());

    await proxy.cut();
    await expect(store.create(newQuestion())).rejects.toMatchObject({
      name: 'StoreError',
      code: 'redis_unavailable',
    });
    await expect(store.finish('any', { action: 'cancel' }, 'timed_out')).rejects.toMatchObject({
      code: 'redis_unavailable',
    });

    await proxy.restore();
    const q = await vi.waitFor(() => store.create(newQuestion()), { timeout: 10_000, interval: 100 });
    expect(await store.get(q.id)).toEqual(q);
  });

  it('delivers, after Redis comes back, an outcome written while the holder was cut off', async () => {
    const prefix = uniquePrefix();
    proxy = await startProxy(redisUrl());
    const holder = await openStore(prefix, 'holder-a', { url: proxy.url });
    const answerer = await openStore(prefix, 'holder-b');
    const seen = collector<Question>();
    await holder.startInbox((q) => seen.push(q));
    const q = await holder.create(newQuestion());

    await proxy.cut();
    await answerer.finish(q.id, { action: 'decline' }, 'declined');
    await proxy.restore();
    expect((await seen.next(1)).map((x) => x.id)).toEqual([q.id]);
  });
});

describe('silent connection death', () => {
  // Bound: INBOX_STALL_MS, plus up to 2 s for ioredis to give up on the dead socket's graceful end.
  it(
    'reconnects a stalled inbox read and delivers what arrived meanwhile',
    async () => {
      const prefix = uniquePrefix();
      proxy = await startProxy(redisUrl());
      const holder = await openStore(prefix, 'holder-a', { url: proxy.url });
      const answerer = await openStore(prefix, 'holder-b');
      const seen = collector<Question>();
      await holder.startInbox((q) => seen.push(q));
      const [first, second] = [await holder.create(newQuestion()), await holder.create(newQuestion())];
      await answerer.finish(first.id, { action: 'decline' }, 'declined');
      await seen.next(1);

      proxy.blackhole();
      await answerer.finish(second.id, { action: 'cancel' }, 'closed');
      expect((await seen.next(2)).map((q) => q.id)).toEqual([first.id, second.id]);
    },
    INBOX_STALL_MS + 10_000,
  );
});

describe('close during an outage', () => {
  it('returns while Redis is unreachable, with the worker and inbox running', async () => {
    proxy = await startProxy(redisUrl());
    const logger = recordingLogger();
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a', { url: proxy.url, logger });
    await store.startTimeouts(() => Promise.resolve());
    await store.startInbox(() => undefined);
    await proxy.cut();
    // Close only once the inbox has seen the drop, so it is closing a reconnecting client.
    await vi.waitFor(() => {
      const dropped = logger.logged.map((l) => ('connection' in l.obj ? l.obj.connection : undefined));
      expect(dropped).toContain(`${prefix}:inbox:holder-a`);
    });
    await store.close();
  });
});
