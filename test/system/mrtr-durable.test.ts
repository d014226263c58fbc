// Durable 2026 rounds (#17 item 3): a round's state lives in Redis, the answer that completes it claims the
// retry atomically, and a survivor takes over a claim whose replica died. The `counted` tool of the MRTR
// fixture asks two confirmations in one round and says how many times that round's requestState came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import { ROUND_LEASE_MS, TAKE_OVER_EVERY_MS } from '../../src/rounds/index.js';
import { SlackDriver } from '../../src/standin/index.js';
import { startMrtrFixture, type HttpPeer } from '../mcp/peers.js';
import { redisUrl } from '../setup/context.js';
import { holdRetries } from '../support/hold-retries.js';
import { resultText } from '../support/slack-text.js';
import { SIGNING_SECRET, childReplica, startHarness, type Harness } from './harness.js';

describe('durable 2026 rounds across replicas', () => {
  let peer: HttpPeer;
  let h: Harness;
  beforeAll(async () => {
    peer = await startMrtrFixture();
    h = await startHarness({ replicas: 2, servers: { modern: { url: peer.url } } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await peer.stop();
  });

  /** The card asking `message` in `userId`'s DM, once posted. */
  async function card(userId: string, message: string): Promise<{ channel: string; ts: string }> {
    const channel = h.standin.dmChannelOf(userId);
    const has = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(message);
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === channel && has(c.args.blocks),
      30_000,
    );
    const posted = h.standin.messagesIn(channel).find((m) => has(m.blocks));
    return { channel, ts: posted?.ts ?? '' };
  }

  /** Declines the card asking `message` through `driver` (returned, to be clicked later). */
  async function declineOf(
    userId: string,
    message: string,
    driver: SlackDriver,
  ): Promise<() => Promise<unknown>> {
    const asked = await card(userId, message);
    return () => driver.clickButton({ userId, ...asked, actionId: 'elicit_decline' });
  }

  const results = (userId: string): string[] =>
    h.standin
      .messagesIn(h.standin.dmChannelOf(userId))
      .map((m) => resultText(m.blocks))
      .filter((text) => text.includes('counted:'));

  async function openRounds(): Promise<number> {
    const redis = new Redis(redisUrl());
    try {
      return await redis.zcard(keys(h.prefix).openRounds);
    } finally {
      await redis.quit();
    }
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
    expect(results('U1')).toEqual(['counted: retry 1 of this round']);
    expect(await openRounds()).toBe(0);
  });

  it(
    'lets a survivor send the retry, once, of a round whose replica was killed after recording its answers',
    { timeout: ROUND_LEASE_MS + TAKE_OVER_EVERY_MS + 60_000 },
    async () => {
      const hold = await holdRetries(peer.url);
      const { run: doomed, port } = await childReplica(h, {}, { modern: { url: hold.url } });
      try {
        const driver = new SlackDriver({
          eventsUrl: `http://127.0.0.1:${port}/slack/events`,
          signingSecret: SIGNING_SECRET,
          standin: h.standin,
        });
        await driver.slashCommand({ userId: 'U2', command: '/mcp', text: 'run modern counted {}' });
        // Answered through a survivor; the doomed replica holds the questions, records both answers and claims
        // the retry, which the proxy holds: the replica dies with the retry sent but never served.
        const first = await declineOf('U2', 'First?', h.drivers[0]!);
        const second = await declineOf('U2', 'Second?', h.drivers[1]!);
        await Promise.all([first(), second()]);
        await hold.held;
        doomed.child.kill('SIGKILL');
        await doomed.done;

        const channel = h.standin.dmChannelOf('U2');
        await h.standin.waitForCall(
          'chat.postMessage',
          (c) => c.args.channel === channel && resultText(c.args.blocks).includes('counted:'),
          ROUND_LEASE_MS + TAKE_OVER_EVERY_MS + 30_000,
        );
        expect(results('U2')).toEqual(['counted: retry 1 of this round']);
        expect(await openRounds()).toBe(0);
      } finally {
        await hold.close();
      }
    },
  );
});
