// Durable 2026 rounds (#17 item 3): a round's state lives in Redis, each answer is recorded in it by whichever
// replica reads the question's end, the answer that completes it claims the retry atomically, and a survivor
// takes over a round whose replica died (before its answers, or with its retry out). The `counted` tool of the MRTR
// fixture asks two confirmations in one round and says how many times that round's requestState came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import { TAKE_OVER_EVERY_MS } from '../../src/rounds/index.js';
import type { SlackDriver } from '../../src/standin/index.js';
import { redisUrl } from '../setup/context.js';
import { holdRetries } from '../support/hold-retries.js';
import { resultText } from '../support/slack-text.js';
import type { CliRun } from './child.js';
import { KILLED_LEASE_MS, doomedReplica } from './child-replicas.js';
import { cardInDm, logsOnFailure, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

describe('durable 2026 rounds across replicas', () => {
  let h: MrtrHarness;
  const logs = logsOnFailure();
  beforeAll(async () => {
    h = await startMrtrHarness({ replicas: 2, logger: logs.logger });
  }, 60_000);
  afterAll(() => h.close());

  /** Declines the card asking `message` through `driver` (returned, to be clicked later). */
  async function declineOf(
    userId: string,
    message: string,
    driver: SlackDriver,
  ): Promise<() => Promise<unknown>> {
    const asked = await cardInDm(h, userId, message);
    return () => driver.clickButton({ userId, ...asked, actionId: 'elicit_decline' });
  }

  const results = (userId: string): string[] =>
    h.standin
      .messagesIn(h.standin.dmChannelOf(userId))
      .map((m) => resultText(m.blocks))
      .filter((text) => text.includes('counted:'));

  async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis(redisUrl());
    try {
      return await work(redis);
    } finally {
      await redis.quit();
    }
  }

  const openRounds = (): Promise<number> => withRedis((redis) => redis.zcard(keys(h.prefix).openRounds));

  /** The replica holding the one open round (the one that asked its questions). */
  const roundHolder = (): Promise<string | null> =>
    withRedis(async (redis) => {
      const [id] = await redis.zrange(keys(h.prefix).openRounds, '0', '-1');
      return id === undefined ? null : await redis.hget(keys(h.prefix).round(id), 'holder');
    });

  /** The one open round's holder, claimant and the end of the claim's lease (epoch ms). */
  const claimOf = (): Promise<Record<string, string>> =>
    withRedis(async (redis) => {
      const [id] = await redis.zrange(keys(h.prefix).openRounds, '0', '-1');
      return id === undefined ? {} : await redis.hgetall(keys(h.prefix).round(id));
    });

  /** Resolves once `holder`'s lease has lapsed (it stopped renewing): the store then counts it dead. */
  const leaseLapsed = (holder: string): Promise<void> =>
    withRedis(async (redis) => {
      while ((await redis.exists(keys(h.prefix).lease(holder))) === 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

  /** The result posted in `userId`'s DM, once posted. */
  async function resultPosted(userId: string): Promise<void> {
    const channel = h.standin.dmChannelOf(userId);
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === channel && resultText(c.args.blocks).includes('counted:'),
      KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 30_000,
    );
  }

  /**
   * `counted` run by `userId` on a doomed replica, once both its cards are out; their declines, clicked later
   * through replica 0 (First?) and `secondAt` (Second?).
   */
  async function askedByDoomed(userId: string, secondAt: SlackDriver) {
    const { doomed, driver } = await doomedReplica(h, { modern: { url: h.peer.url } });
    logs.child(doomed);
    await driver.slashCommand({ userId, command: '/mcp', text: 'run modern counted {}' });
    const first = await declineOf(userId, 'First?', h.drivers[0]!);
    const second = await declineOf(userId, 'Second?', secondAt);
    return { doomed, first, second };
  }

  /** The result of one retry with both declines reached `userId`, and no round is left open. */
  async function retriedOnce(userId: string): Promise<void> {
    await resultPosted(userId);
    expect(results(userId)).toEqual(['counted: retry 1 of this round; a declined, b declined']);
    expect(await openRounds()).toBe(0);
  }

  async function kill(doomed: CliRun): Promise<void> {
    doomed.child.kill('SIGKILL');
    await doomed.done;
  }

  it('sends the retry once when a round’s two answers are clicked on two replicas at the same moment', async () => {
    await h.driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'run modern counted {}' });
    const first = await declineOf('U1', 'First?', h.drivers[0]!);
    const second = await declineOf('U1', 'Second?', h.drivers[1]!);
    await Promise.all([first(), second()]);
    const channel = h.standin.dmChannelOf('U1');
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === channel && resultText(c.args.blocks).includes('counted:'),
      30_000,
    );
    expect(results('U1')).toEqual(['counted: retry 1 of this round; a declined, b declined']);
    expect(await openRounds()).toBe(0);
  });

  it(
    'lets a survivor send the retry, once, of a round whose replica was killed after recording its answers',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 60_000 },
    async () => {
      const hold = await holdRetries(h.peer.url);
      const { doomed, driver } = await doomedReplica(h, { modern: { url: hold.url } });
      logs.child(doomed);
      try {
        await driver.slashCommand({ userId: 'U2', command: '/mcp', text: 'run modern counted {}' });
        // Answered through a survivor; the doomed replica holds the questions, records both answers and claims
        // the retry, which the proxy holds: the replica dies with the retry sent but never served.
        const first = await declineOf('U2', 'First?', h.drivers[0]!);
        const second = await declineOf('U2', 'Second?', h.drivers[1]!);
        await Promise.all([first(), second()]);
        await hold.held;
        // Its claim on the retry holds for the replica's lease setting, not the default: what the bound stands on.
        const { holder, claimant, leaseUntil } = await claimOf();
        expect(claimant).toBe(holder);
        expect(Number(leaseUntil) - Date.now()).toBeLessThanOrEqual(KILLED_LEASE_MS);
        await kill(doomed);

        await retriedOnce('U2');
      } finally {
        await hold.close();
      }
    },
  );

  it(
    'records the answers of a round whose replica was killed before any answer, and a survivor retries once',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 60_000 },
    async () => {
      // Both cards are out, asked by the doomed replica; it dies before anyone answers.
      const { doomed, first, second } = await askedByDoomed('U3', h.drivers[0]!);
      await kill(doomed);
      await first();
      await second();
      await retriedOnce('U3');
    },
  );

  it(
    'sends the retry once when the answers completing a dead replica’s round land on two replicas at once',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 60_000 },
    async () => {
      const { doomed, first, second } = await askedByDoomed('U4', h.drivers[1]!);
      const holder = await roundHolder();
      expect(holder).not.toBeNull();
      await kill(doomed);
      // Its lease gone, the answer completing the round claims the retry wherever it lands.
      await leaseLapsed(holder ?? '');
      await Promise.all([first(), second()]);
      await retriedOnce('U4');
    },
  );
});
