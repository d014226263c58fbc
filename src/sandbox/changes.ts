// A version number for "something the page shows may have changed", with long-poll waiting on it.
// Every change is either a call the bot made to the stand-in (its call log grows) or a close the sandbox
// applied itself (bump), so the version is the log's length plus the bumps.
import type { SlackStandin } from '../standin/index.js';

/** How often waiting long-polls look at the stand-in's call log, in ms. */
const TICK_MS = 100;

export class Changes {
  private bumps = 0;
  private readonly waiters = new Set<{ after: number; resolve: () => void; timer: NodeJS.Timeout }>();
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly standin: SlackStandin) {}

  version(): number {
    return this.standin.calls.length + this.bumps;
  }

  bump(): void {
    this.bumps += 1;
    this.check();
  }

  /** Resolves once the version is above `after`, or after `maxMs` (whichever is first). */
  wait(after: number, maxMs: number): Promise<void> {
    if (this.version() > after) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        after,
        resolve: () => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve();
        },
        timer: setTimeout(() => waiter.resolve(), maxMs),
      };
      this.waiters.add(waiter);
      this.ticker ??= setInterval(() => this.check(), TICK_MS);
    });
  }

  private check(): void {
    const now = this.version();
    for (const w of [...this.waiters]) if (now > w.after) w.resolve();
    if (this.waiters.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** Releases every waiter (the sandbox is stopping). */
  close(): void {
    for (const w of [...this.waiters]) w.resolve();
    this.check();
  }
}
