// Post-ack work waits while a Slack request waits for its ack, goes one piece per turn once none does, and
// never waits past the bound (src/slack/ack-gate.ts). Time is a manual clock: a "turn" runs the timers due.
import { describe, expect, it } from 'vitest';
import { ACK_GATE_MAX_WAIT_MS, AckGate } from '../../src/slack/ack-gate.js';
import { steppedClock } from '../support/stepped-clock.js';

/** Starts `n` pieces of post-ack work; `done` lists the ones let go so far, in order. */
function waitFor(gate: AckGate, n: number): { done: number[] } {
  const done: number[] = [];
  for (let i = 0; i < n; i++) void gate.turn().then(() => done.push(i));
  return { done };
}

describe('AckGate', () => {
  it('holds post-ack work while a request waits for its ack, and lets it go once it is answered', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    const answered = gate.arrived();
    const work = waitFor(gate, 1);
    await clock.advance(0);
    await clock.advance(ACK_GATE_MAX_WAIT_MS - 1);
    expect(work.done).toEqual([]);
    expect([gate.unanswered, gate.queued]).toEqual([1, 1]);
    answered();
    await clock.turn();
    expect(work.done).toEqual([0]);
    expect([gate.unanswered, gate.queued]).toEqual([0, 0]);
  });

  it('lets work go on the next turn when no request is in flight', async () => {
    const clock = steppedClock();
    const work = waitFor(new AckGate(clock), 1);
    expect(work.done).toEqual([]);
    await clock.turn();
    expect(work.done).toEqual([0]);
  });

  it('lets work go after the bound even while requests keep waiting for their acks', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    gate.arrived();
    const work = waitFor(gate, 2);
    await clock.advance(ACK_GATE_MAX_WAIT_MS - 1);
    expect(work.done).toEqual([]);
    await clock.advance(1);
    expect(work.done).toEqual([0, 1]);
    expect([gate.unanswered, gate.queued]).toEqual([1, 0]);
  });

  it('lets one piece go per turn, so a request that arrives in between holds the rest', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    const work = waitFor(gate, 3);
    await clock.turn();
    expect(work.done).toEqual([0]);
    const answered = gate.arrived();
    await clock.turn();
    expect(work.done).toEqual([0]);
    answered();
    await clock.turn();
    await clock.turn();
    expect(work.done).toEqual([0, 1, 2]);
  });

  it('counts an answer once, however often it is reported', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    const first = gate.arrived();
    gate.arrived();
    first();
    first();
    const work = waitFor(gate, 1);
    await clock.turn();
    expect(work.done).toEqual([]);
    expect(gate.unanswered).toBe(1);
  });

  it('lets a step of work under way go at once when nothing waits, without a turn of its own', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    let went = false;
    void gate.afterAcks().then(() => (went = true));
    // No timer run: resolved as a plain promise is.
    await Promise.resolve();
    expect(went).toBe(true);
  });

  it('holds a step of work under way while a request waits for its ack, and behind work already waiting', async () => {
    const clock = steppedClock();
    const gate = new AckGate(clock);
    const answered = gate.arrived();
    const done: string[] = [];
    void gate.turn().then(() => done.push('piece'));
    void gate.afterAcks().then(() => done.push('step'));
    await clock.turn();
    expect(done).toEqual([]);
    answered();
    await clock.turn();
    expect(done).toEqual(['piece']);
    await clock.turn();
    expect(done).toEqual(['piece', 'step']);
  });
});
