// Fair turns at asking (src/relay/turns.ts): a few questions start at once, a person's first two before
// anyone's later ones, later ones person by person, each person's in the order asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/clock.js';
import { TURN_HOLD_MS, Turns, type EndTurn } from '../../src/relay/turns.js';

/** Lets the turns that were given resolve their takers. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A schedule whose timers run when the test says (`runDue`), each with the delay it was given. */
function manualSchedule() {
  const due = new Map<() => void, number>();
  const schedule: Schedule = (fn, ms) => {
    due.set(fn, ms);
    return () => due.delete(fn);
  };
  const runDue = () => [...due.keys()].forEach((fn) => fn());
  return { schedule, runDue, due };
}

/** Asks turns in the test's words: `ask('A', 'A1')`, `end('A1')`; `started` lists the labels in start order. */
function asking(concurrency: number) {
  const clock = manualSchedule();
  const turns = new Turns(concurrency, clock.schedule);
  const started: string[] = [];
  const ends = new Map<string, EndTurn>();
  const ask = (who: string, ...labels: string[]) => {
    for (const label of labels) {
      void turns.take(who).then((end) => {
        started.push(label);
        ends.set(label, end);
      });
    }
  };
  const end = async (label: string) => {
    const endTurn = ends.get(label);
    if (endTurn === undefined) throw new Error(`${label} has not started`);
    endTurn();
    await settle();
  };
  return { started, ask, end, clock };
}

describe('Turns', () => {
  it('starts as many at once as it is given, and the next one when a turn ends', async () => {
    const { started, ask, end } = asking(2);
    ask('A', 'A1', 'A2', 'A3');
    await settle();
    expect(started).toEqual(['A1', 'A2']);
    await end('A1');
    expect(started).toEqual(['A1', 'A2', 'A3']);
  });

  it("starts another person's first question before a person's second", async () => {
    const { started, ask, end } = asking(1);
    ask('A', 'A1', 'A2', 'A3', 'A4', 'A5');
    ask('B', 'B1');
    await settle();
    for (const label of ['A1', 'B1', 'A2', 'A3', 'A4']) await end(label);
    expect(started).toEqual(['A1', 'B1', 'A2', 'A3', 'A4', 'A5']);
  });

  it("starts everyone's first two questions before anyone's third, then takes people in turn", async () => {
    const { started, ask, end } = asking(1);
    ask('A', 'A1', 'A2', 'A3', 'A4');
    ask('B', 'B1', 'B2', 'B3');
    ask('C', 'C1', 'C2', 'C3');
    await settle();
    for (let i = 0; i < 9; i++) await end(started[i] ?? '');
    expect(started).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'C2', 'A3', 'B3', 'C3', 'A4']);
  });

  it('gives a person whose questions have all started and ended their first turns again', async () => {
    const { started, ask, end } = asking(1);
    ask('A', 'A1', 'A2', 'A3');
    await settle();
    for (const label of ['A1', 'A2', 'A3']) await end(label);
    ask('B', 'B1', 'B2', 'B3');
    ask('A', 'A4');
    await settle();
    for (const label of ['B1', 'A4']) await end(label);
    expect(started).toEqual(['A1', 'A2', 'A3', 'B1', 'A4', 'B2']);
  });

  it('frees one place for a turn ended twice', async () => {
    const { started, ask, end } = asking(1);
    ask('A', 'A1');
    ask('B', 'B1', 'B2');
    await settle();
    await end('A1');
    await end('A1');
    expect(started).toEqual(['A1', 'B1']);
  });

  it('gives the place of a turn held for TURN_HOLD_MS to the next one, and forgets its timer once ended', async () => {
    const { started, ask, end, clock } = asking(1);
    ask('A', 'A1');
    ask('B', 'B1');
    await settle();
    expect([...clock.due.values()]).toEqual([TURN_HOLD_MS]);
    clock.runDue();
    await settle();
    expect(started).toEqual(['A1', 'B1']);
    await end('B1');
    expect(clock.due.size).toBe(0);
  });

  it("never runs more than it is given, and starts each person's questions in the order asked", async () => {
    const step = fc.oneof(
      fc.record({ ask: fc.constantFrom('A', 'B', 'C', 'D') }),
      fc.record({ end: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(step, { maxLength: 40 }),
        async (n, steps) => {
          const turns = new Turns(n, manualSchedule().schedule);
          const asked: [string, number][] = [];
          const running: EndTurn[] = [];
          const starts: [string, number][] = [];
          for (const s of steps) {
            if ('ask' in s) {
              const mine: [string, number] = [s.ask, asked.filter(([who]) => who === s.ask).length];
              asked.push(mine);
              void turns.take(s.ask).then((endTurn) => {
                starts.push(mine);
                running.push(endTurn);
              });
            } else if (running.length > 0) running.splice(s.end % running.length, 1)[0]?.();
            await settle();
            expect(running.length).toBeLessThanOrEqual(n);
          }
          while (running.length > 0) {
            running.shift()?.();
            await settle();
          }
          expect(starts).toHaveLength(asked.length);
          for (const who of ['A', 'B', 'C', 'D']) {
            const order = starts.filter(([w]) => w === who).map(([, i]) => i);
            expect(order).toEqual([...order].sort((a, b) => a - b));
          }
        },
      ),
    );
  });
});
