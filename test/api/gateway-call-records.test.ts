// The entries of POST /mcp's gateway calls in real Redis, for a host's cancel that lands on another replica than
// the call's (endpoint-calls.ts, gateway-cancels.ts): the cancel marks the one call running under its name, the
// replica running it reads the mark at its next check (one a second, and none while no call runs) and ends it;
// two calls under one name, on any replicas and of either kind, are found by neither; a cancel for a call that
// already ended changes nothing.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEndpointCalls, type GatewayEntry } from '../../src/api/endpoint-calls.js';
import { GATEWAY_CHECK_MS, GATEWAY_ENTRY_TTL_MS, GatewayCancels } from '../../src/api/gateway-cancels.js';
import { callIdOf } from '../../src/mcp/host-calls.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { steppedClock } from '../support/stepped-clock.js';

const prefix = uniquePrefix();
const [redisA, redisB] = [new Redis(redisUrl()), new Redis(redisUrl())];
afterAll(async () => {
  redisA.disconnect();
  redisB.disconnect();
  await deleteUnder(prefix);
});

const keyOf = (client: string, id: string): string => `${prefix}:{q}:mcpcall:${client}:${id}`;
/** The same records as two replicas see them, each on its own connection. */
const [replicaA, replicaB] = [new RedisEndpointCalls(redisA, keyOf), new RedisEndpointCalls(redisB, keyOf)];
const MINUTE_MS = 60_000;
/** The key RedisEndpointCalls keeps `call`'s entry under (the host's id hashed). */
const entryKey = (call: GatewayEntry): string =>
  keyOf(call.client, createHash('sha256').update(call.callId).digest('hex'));
const silent = { warn: () => undefined };

/** Replica A's running gateway calls on a stepped clock; `checked()` resolves once its next check is done. */
function replicaACancels() {
  const clock = steppedClock();
  let check = deferred();
  const calls = {
    rememberGateway: (call: GatewayEntry, ttlMs: number) => replicaA.rememberGateway(call, ttlMs),
    adoptGateway: (call: GatewayEntry, ttlMs: number) => replicaA.adoptGateway(call, ttlMs),
    forgetGateway: (call: GatewayEntry) => replicaA.forgetGateway(call),
    checkGateways: async (running: readonly GatewayEntry[], ttlMs: number) => {
      const cancelled = await replicaA.checkGateways(running, ttlMs);
      // After the caller has acted on the answer.
      const done = check;
      check = deferred();
      setImmediate(() => done.resolve());
      return cancelled;
    },
  };
  const cancels = new GatewayCancels({ calls, clock, logger: silent });
  const checked = async (): Promise<void> => {
    const done = check.promise;
    await clock.advance(GATEWAY_CHECK_MS);
    await done;
  };
  return { cancels, clock, checked };
}

describe("a gateway call's entry, for a cancel on another replica", () => {
  it('is ended on its replica at the check after a cancel elsewhere marks it, then forgotten', async () => {
    const { cancels, clock, checked } = replicaACancels();
    const callId = callIdOf('session-a', 1);
    const work = deferred<string>();
    const cancelled = deferred();
    const running = cancels.run('ci', { callId, cancel: () => cancelled.resolve() }, () => work.promise);
    await expect.poll(() => clock.pending()).toBe(1);
    await checked();
    expect(await replicaB.questionOf('ci', callId)).toBeUndefined();
    expect(await replicaB.cancelGateway('ci', callId)).toBe(true);
    await checked();
    await cancelled.promise;
    // The cancel closes the host's request, which aborts the call; here the work then settles.
    work.resolve('ended');
    expect(await running).toBe('ended');
    expect(await replicaB.cancelGateway('ci', callId)).toBe(false);
    await clock.advance(GATEWAY_CHECK_MS);
    expect(clock.pending()).toBe(0);
  });

  it('changes nothing when the cancel comes after the call ended', async () => {
    const { cancels } = replicaACancels();
    const callId = callIdOf('session-b', 2);
    const cancel = (): void => expect.unreachable('a finished call was cancelled');
    expect(await cancels.run('ci', { callId, cancel }, () => Promise.resolve('done'))).toBe('done');
    expect(await replicaB.cancelGateway('ci', callId)).toBe(false);
    // The name is free again: a later call under it is found.
    const later = { client: 'ci', callId, token: 'later' };
    await replicaA.rememberGateway(later, MINUTE_MS);
    expect(await replicaB.cancelGateway('ci', callId)).toBe(true);
    expect(await replicaA.checkGateways([later], MINUTE_MS)).toEqual(['later']);
    await replicaA.forgetGateway(later);
  });

  it('is found for neither of two calls running under one name, on two replicas or beside an ask_human', async () => {
    const callId = callIdOf(undefined, 7);
    const onA = { client: 'ci', callId, token: 'on-a' };
    const onB = { client: 'ci', callId, token: 'on-b' };
    await replicaA.rememberGateway(onA, MINUTE_MS);
    await replicaB.rememberGateway(onB, MINUTE_MS);
    expect(await replicaB.cancelGateway('ci', callId)).toBe(false);
    expect(await replicaA.checkGateways([onA], MINUTE_MS)).toEqual([]);
    expect(await replicaB.checkGateways([onB], MINUTE_MS)).toEqual([]);
    await replicaA.forgetGateway(onA);
    expect(await replicaA.cancelGateway('ci', callId)).toBe(false);

    const shared = callIdOf(undefined, 8);
    const gateway = { client: 'ci', callId: shared, token: 'gw' };
    await replicaA.remember('ci', shared, 'Q1', MINUTE_MS);
    await replicaB.rememberGateway(gateway, MINUTE_MS);
    expect(await replicaA.questionOf('ci', shared)).toBeUndefined();
    expect(await replicaA.cancelGateway('ci', shared)).toBe(false);
  });

  it("is never taken for an ask_human call's question", async () => {
    const callId = callIdOf('session-c', 3);
    const entry = { client: 'ci', callId, token: 'tok' };
    await replicaA.rememberGateway(entry, MINUTE_MS);
    expect(await replicaB.questionOf('ci', callId)).toBeUndefined();
    await replicaB.cancelGateway('ci', callId);
    expect(await replicaB.questionOf('ci', callId)).toBeUndefined();
    await replicaA.forgetGateway(entry);
  });

  it("lives while its replica's checks renew it, and lapses once they stop", async () => {
    const renewed = { client: 'ci', callId: callIdOf('session-d', 4), token: 'renewed' };
    await replicaA.rememberGateway(renewed, 100);
    expect(await replicaA.checkGateways([renewed], GATEWAY_ENTRY_TTL_MS)).toEqual([]);
    expect(await redisA.pttl(entryKey(renewed))).toBeGreaterThan(GATEWAY_ENTRY_TTL_MS - 10_000);
    await replicaA.forgetGateway(renewed);
    const left = { client: 'ci', callId: callIdOf('session-d', 5), token: 'left' };
    await replicaA.rememberGateway(left, 100);
    await expect.poll(() => redisA.exists(entryKey(left))).toBe(0);
    expect(await replicaB.cancelGateway('ci', left.callId)).toBe(false);
  });
});
