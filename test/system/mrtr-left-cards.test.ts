// A replica stopping gracefully leaves its durable 2026 rounds' questions pending for a survivor and waits at
// most 10 s for its card posts; a post Slack's pacing puts later than that (a busy DM) is left queued in the
// outbox, where another replica's worker makes it. Only the poster attached a card to its question, so such a
// card stayed unattached: nobody updated it when its question ended. The undelivered sweep, on every replica,
// attaches it (ELICIT_RELAY_REDELIVER_AFTER, here 1 s). End to end: two replicas in process, the MRTR fixture's
// `counted` tool (two confirmations in one round), real Redis and the stand-in pacing the DM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import { Outbox } from '../../src/slack/index.js';
import { redisUrl } from '../setup/context.js';
import { resultText } from '../support/slack-text.js';
import { cardInDm, logsOnFailure, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

/** Posts queued in the person's DM before the round's cards: they put the cards ~15 s out (1 a second). */
const AHEAD = 16;
const USER = 'ULEFT';

describe('a durable round’s cards left queued by a stopping replica', () => {
  let h: MrtrHarness;
  let outbox: Outbox | undefined;
  const logs = logsOnFailure();
  beforeAll(async () => {
    h = await startMrtrHarness({
      replicas: 2,
      logger: logs.logger,
      env: { ELICIT_RELAY_REDELIVER_AFTER: '1s' },
    });
  }, 60_000);
  afterAll(async () => {
    await outbox?.close();
    await h.close();
  });

  /** Resolves once the round's two questions are stored (each in the index of questions not yet attached). */
  async function roundAsked(): Promise<void> {
    const redis = new Redis(redisUrl());
    try {
      while ((await redis.zcard(keys(h.prefix).unattached)) < 2) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      redis.disconnect();
    }
  }

  /** Queues `n` messages in the DM of USER, made by the replicas' outbox workers one a second. */
  async function busyDm(n: number): Promise<void> {
    outbox = await Outbox.open({ url: redisUrl(), prefix: h.prefix });
    const channel = h.standin.dmChannelOf(USER);
    const ahead = Array.from({ length: n }, (_, i) => {
      const post = {
        method: 'chat.postMessage' as const,
        channel,
        key: `ahead-${i}`,
        args: { text: `${i}` },
      };
      return new Promise<void>((queued) => void outbox?.send(post, queued).catch(() => undefined));
    });
    await Promise.all(ahead);
  }

  it(
    'are attached by a survivor, so they show the end once the round is answered',
    { timeout: 90_000 },
    async () => {
      await busyDm(AHEAD);
      const [leaving] = h.replicas;
      await h.drivers[0]?.slashCommand({ userId: USER, command: '/mcp', text: 'run modern counted {}' });
      await roundAsked();
      await leaving?.stop();

      const first = await cardInDm(h, USER, 'First?');
      const second = await cardInDm(h, USER, 'Second?');
      for (const card of [first, second]) {
        await h.drivers[1]?.clickButton({ userId: USER, ...card, actionId: 'elicit_decline' });
      }
      const channel = h.standin.dmChannelOf(USER);
      await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.args.channel === channel && resultText(c.args.blocks).includes('counted:'),
        60_000,
      );
      for (const card of [first, second]) {
        await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 30_000);
        expect(h.standin.message(card.channel, card.ts)?.updates).toBe(1);
      }
    },
  );
});
