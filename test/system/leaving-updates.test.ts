// A replica stopping gracefully ends the questions it waits on (call_ended) and leaves their card updates queued
// in the outbox (BullMQ jobs in Redis): chat.update is paced per workspace (Tier 3, one per 1.2 s once its burst
// is spent), so the stop does not wait those slots out; another replica's outbox worker makes the updates. End
// to end through the stand-in and real Redis, two replicas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/slack/index.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from './harness.js';

const NAME_FORM = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
} as const;

/** Questions waiting on the stopping replica (two people: a person's calls to one server are bounded by 4). */
const WAITING = 4;
/** chat.update slots other calls take just before the stop: the burst and a few more, so each update waits. */
const TAKEN_SLOTS = 8;

describe('a stopping replica’s card updates', () => {
  let h: Harness;
  let outbox: Outbox | undefined;
  beforeAll(async () => {
    h = await startHarness({ replicas: 2 });
  });
  afterAll(async () => {
    await outbox?.close();
    await h.close();
  });

  it('are left queued for another replica: the stop ends before they are made, and every card is updated', async () => {
    const cards: { channel: string; ts: string }[] = [];
    for (let i = 0; i < WAITING; i++) cards.push(await h.ask(`ULEAVE${i % 2}`, NAME_FORM, `Name ${i}?`));
    // The workspace's chat.update budget is in use (e.g. a flood's updates), as another replica reserves it.
    outbox = await Outbox.open({ url: redisUrl(), prefix: h.prefix });
    for (let i = 0; i < TAKEN_SLOTS; i++) await outbox.slotFor('chat.update', h.standin.identity.teamId);
    const [leaving] = h.replicas;
    await leaving?.stop();

    const updated = () => h.standin.calls.filter((c) => c.method === 'chat.update');
    // The stop waited for none of the paced slots: when it returned, updates were still to be made.
    expect(updated().length).toBeLessThan(WAITING);
    for (const card of cards) {
      await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 30_000);
      expect(h.standin.message(card.channel, card.ts)?.updates).toBe(1);
    }
  });
});
