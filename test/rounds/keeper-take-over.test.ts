// This replica's side of durable rounds, on an injected clock (no waiting): the keeper claims and renews, the
// take-over sweep resumes rounds whose claimant stopped. Over MemoryRoundStore (the contract suite holds it to
// the Redis store's behaviour).
import { describe, expect, it } from 'vitest';
import {
  MemoryRoundStore,
  MemoryRounds,
  ROUND_LEASE_MS,
  TAKE_OVER_EVERY_MS,
  roundKeeper,
  startTakeOver,
  type ResumedCall,
} from '../../src/rounds/index.js';
import { handClock, round } from './support.js';

const silent = { warn: () => undefined };

describe('round keeper', () => {
  it('names this replica the holder, and answers true only for the answer that claims the retry', async () => {
    const store = new MemoryRoundStore();
    const keeper = roundKeeper({ store, claimant: 'r1', clock: handClock(), logger: silent });
    const id = await keeper.open({ ...round, requests: [...round.requests, { key: 'b', request: {} }] });
    expect(await store.get(id)).toMatchObject({ holder: 'r1', status: 'waiting' });
    expect(await keeper.answered(id, 1, 'a', { action: 'decline' })).toBe(false);
    expect(await keeper.answered(id, 1, 'b', { action: 'decline' })).toBe(true);
    expect(await keeper.answered(id, 1, 'b', { action: 'accept' })).toBe(false);
    expect(await store.get(id)).toMatchObject({ status: 'claimed', claimant: 'r1' });
  });

  it('renews a held claim every third of its lease while the retry is out, and stops once released', async () => {
    const clock = handClock();
    const store = new MemoryRoundStore();
    const keeper = roundKeeper({ store, claimant: 'r1', clock, logger: silent });
    const id = await keeper.open(round);
    await keeper.answered(id, 1, 'a', { action: 'accept', content: {} });
    const start = clock.now();
    expect((await store.get(id))?.leaseUntil).toBe(start + ROUND_LEASE_MS);

    const release = keeper.hold(id);
    await clock.advance(ROUND_LEASE_MS / 3);
    expect((await store.get(id))?.leaseUntil).toBe(start + (ROUND_LEASE_MS * 4) / 3);
    await clock.advance(ROUND_LEASE_MS / 3);
    expect((await store.get(id))?.leaseUntil).toBe(start + (ROUND_LEASE_MS * 5) / 3);
    release();
    await clock.advance(ROUND_LEASE_MS);
    expect((await store.get(id))?.leaseUntil).toBe(start + (ROUND_LEASE_MS * 5) / 3);
  });

  it('renews no more once released while a renewal was on its way', async () => {
    const clock = handClock();
    const store = new MemoryRoundStore();
    const keeper = roundKeeper({ store, claimant: 'r1', clock, logger: silent });
    const id = await keeper.open(round);
    await keeper.answered(id, 1, 'a', { action: 'decline' });
    const release = keeper.hold(id);
    // The renewal's timer runs (its store call is out) and the retry is answered before the store answers.
    const advanced = clock.advance(ROUND_LEASE_MS / 3);
    release();
    await advanced;
    const renewedUntil = clock.now() + ROUND_LEASE_MS;
    expect((await store.get(id))?.leaseUntil).toBe(renewedUntil);
    await clock.advance(ROUND_LEASE_MS);
    expect((await store.get(id))?.leaseUntil).toBe(renewedUntil);
  });

  it('stops renewing once another replica took the claim over', async () => {
    const clock = handClock();
    const shared = new MemoryRounds();
    const keeper = roundKeeper({
      store: new MemoryRoundStore(shared),
      claimant: 'r1',
      clock,
      logger: silent,
    });
    const other = new MemoryRoundStore(shared);
    const id = await keeper.open(round);
    await keeper.answered(id, 1, 'a', { action: 'decline' });
    keeper.hold(id);
    // r1 paused past its lease: r2 takes the round over, and r1's next renewal finds it no longer held.
    const lapsed = clock.now() + ROUND_LEASE_MS;
    expect(await other.takeOver({ claimant: 'r2', now: lapsed, leaseMs: ROUND_LEASE_MS })).toHaveLength(1);
    await clock.advance(ROUND_LEASE_MS / 3);
    await clock.advance(ROUND_LEASE_MS);
    expect(await other.get(id)).toMatchObject({ claimant: 'r2', leaseUntil: lapsed + ROUND_LEASE_MS });
  });
});

describe('round take-over sweep', () => {
  async function claimedBy(shared: MemoryRounds, claimant: string, now: number): Promise<string> {
    const store = new MemoryRoundStore(shared);
    const opened = await store.open(round);
    const claim = { claimant, now, leaseMs: ROUND_LEASE_MS };
    expect(await store.answer(opened.id, 1, 'a', { action: 'decline' }, claim)).toBe('claimed');
    return opened.id;
  }

  it('resumes, once, each round whose claimant stopped renewing, from its recorded answers', async () => {
    const clock = handClock();
    const shared = new MemoryRounds();
    const id = await claimedBy(shared, 'dead', clock.now());
    const resumed: ResumedCall[] = [];
    const store = new MemoryRoundStore(shared);
    // As the survivor's run does: its retry is out, so it holds the claim through its keeper.
    const keeper = roundKeeper({ store, claimant: 'survivor', clock, logger: silent });
    const resume = (call: ResumedCall) => {
      keeper.hold(call.resume.id);
      return Promise.resolve(void resumed.push(call));
    };
    const stop = startTakeOver({ store, claimant: 'survivor', clock, resume, logger: silent });

    await clock.advance(TAKE_OVER_EVERY_MS * 2);
    expect(resumed).toEqual([]);
    await clock.advance(ROUND_LEASE_MS);
    expect(resumed).toEqual([
      {
        server: 'modern',
        tool: 'counted',
        args: { n: 1 },
        origin: { userId: 'U1' },
        resume: { id, round: 1, requestState: 'sealed', answers: { a: { action: 'decline' } } },
      },
    ]);
    expect(await store.get(id)).toMatchObject({ status: 'claimed', claimant: 'survivor' });
    // The survivor holds it now and renews its claim: later sweeps leave it alone.
    await clock.advance(ROUND_LEASE_MS * 3);
    expect(resumed).toHaveLength(1);
    await stop();
  });

  it('keeps sweeping after a resume that failed, and sweeps no more once stopped', async () => {
    const clock = handClock();
    const shared = new MemoryRounds();
    await claimedBy(shared, 'dead', clock.now());
    const warned: string[] = [];
    const logger = { warn: (_: object, msg: string) => void warned.push(msg) };
    const store = new MemoryRoundStore(shared);
    const resume = () => Promise.reject(new Error('Slack is down'));
    const stop = startTakeOver({ store, claimant: 'survivor', clock, resume, logger });

    await clock.advance(ROUND_LEASE_MS + TAKE_OVER_EVERY_MS);
    expect(warned).toEqual(['taken-over round not resumed']);
    await stop();
    await claimedBy(shared, 'dead-too', clock.now());
    await clock.advance(ROUND_LEASE_MS * 3);
    expect(warned).toHaveLength(1);
  });
});
