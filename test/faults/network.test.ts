// T14: the network between a replica and Redis misbehaves (the in-repo TCP proxy in front of Redis): 200 ms
// added each way, every connection reset, every connection silently blackholed. Each question still ends once
// and its outcome reaches the holder.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import type { QuestionStore } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore } from '../store/helpers.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';

let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** A holder whose every Redis connection goes through the proxy, its timeouts and inbox running; and a peer. */
async function holderBehindProxy() {
  proxy = await startProxy(redisUrl());
  const prefix = uniquePrefix();
  const holder = await openStore(prefix, 'holder-a', { url: proxy.url });
  const peer = await openStore(prefix, 'holder-b');
  const seen = collector<Question>();
  await holder.startInbox((q) => seen.push(q));
  await holder.startTimeouts(async (id) => {
    await holder.finish(id, { action: 'cancel' }, 'timed_out');
  });
  return { proxy, holder, peer, seen };
}

/** Creates once Redis answers again: while a connection comes back, commands fail fast instead of queueing. */
function createWhenBack(store: QuestionStore, timeoutMs: number): Promise<Question> {
  return vi.waitFor(() => store.create(newQuestion({ timeoutMs })), { timeout: 15_000, interval: 100 });
}

function expectOncePerQuestion(seen: Question[], ids: string[]): void {
  expect(seen.map((q) => q.id).sort()).toEqual([...ids].sort());
}

describe('a replica whose network to Redis misbehaves', () => {
  it('T14: with 200 ms added each way, answers and timeouts each reach the holder once', async () => {
    const { proxy, holder, peer, seen } = await holderBehindProxy();
    proxy.latency(200);
    const answered = await holder.create(newQuestion());
    const timedOut = await holder.create(newQuestion({ timeoutMs: 500 }));
    await peer.finish(answered.id, { action: 'decline' }, 'declined');
    const got = await seen.next(2);
    expectOncePerQuestion(got, [answered.id, timedOut.id]);
    expect(got.find((q) => q.id === timedOut.id)).toMatchObject({ reason: 'timed_out' });
  });

  it('T14: after every connection is reset, the replica reconnects and a timeout due meanwhile still fires', async () => {
    const { proxy, holder, peer, seen } = await holderBehindProxy();
    const due = await holder.create(newQuestion({ timeoutMs: 1_000 }));
    proxy.reset();
    const after = await createWhenBack(holder, 60_000);
    await peer.finish(after.id, { action: 'decline' }, 'declined');
    expectOncePerQuestion(await seen.next(2), [due.id, after.id]);
  });

  it('T14: after every connection is silently blackholed, the replica recovers and a timeout still fires', async () => {
    const { proxy, holder, peer, seen } = await holderBehindProxy();
    const due = await holder.create(newQuestion({ timeoutMs: 1_000 }));
    proxy.blackhole();
    const after = await createWhenBack(holder, 60_000);
    await peer.finish(after.id, { action: 'decline' }, 'declined');
    expectOncePerQuestion(await seen.next(2), [due.id, after.id]);
  }, 40_000);
});
