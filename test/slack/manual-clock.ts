// A clock for tests whose timers fire only when the test says so.
import type { Clock } from '../../src/clock.js';

export class ManualClock implements Pick<Clock, 'now' | 'schedule'> {
  time = 0;
  readonly pending = new Map<number, { run: () => void; ms: number }>();
  private id = 0;
  now(): number {
    return this.time;
  }
  schedule = (run: () => void, ms: number): (() => void) => {
    const timer = ++this.id;
    this.pending.set(timer, { run, ms });
    return () => void this.pending.delete(timer);
  };
  /** Moves to `time` and fires every pending timer. */
  fire(time = this.time): void {
    this.time = time;
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const timer of due) timer.run();
  }
}
