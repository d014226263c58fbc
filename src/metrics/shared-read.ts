// A level read from Redis at scrape time, bounded so that a hung Redis (SIGSTOP, a stuck failover) still gets
// its scrape answered promptly, well inside Prometheus' scrape timeout (10 s by default).
import { answerWithin } from '../settle.js';

export class SharedRead<T> {
  /** The read in flight: one at a time, however many scrapes wait on it. */
  private inFlight: Promise<T | undefined> | undefined;

  /** `withinMs`: how long a scrape waits for the read, ms. */
  constructor(private readonly withinMs: number) {}

  /**
   * `read()`'s answer, or undefined when it fails or does not come within `withinMs` (the gauge then keeps its
   * last value). A read still waiting on a hung Redis is shared by the next scrapes rather than started again,
   * so that each scrape does not pile more commands up behind it.
   */
  answer(read: () => Promise<T>): Promise<T | undefined> {
    this.inFlight ??= read()
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = undefined;
      });
    return answerWithin(this.inFlight, this.withinMs, undefined);
  }
}
