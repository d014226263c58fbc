// How many sessions to one server may be opening at once. Opening one (the transport, the initialize or
// discover handshake and its response validation, the Streamable HTTP GET stream) costs the bot ≈ 10 ms of
// CPU (3× a plain tool call, measured against the HTTP fixture) and a few round trips; when 100 new people
// a second run a command, the opens alone fill the event loop and new requests wait to be accepted (issue
// #19 goal 6b). Past the limit a start waits in a queue, first come first served; each queued start also
// waits one turn of the event loop (setImmediate), so requests already received are served before it.
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Default most sessions to one server opening at once. 4 delayed the flood's cards (50 people's starts in
 * turn, each a few round trips on a loaded machine); 16 bounds the opens while costing them little.
 */
export const DEFAULT_MAX_SESSION_STARTS = 16;

export class SessionStarts {
  private running = 0;
  /** Starts waiting for a place, first come first served. */
  private readonly queue: (() => void)[] = [];

  /** `max`: most starts running at once (at least 1). */
  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`max session starts must be ≥ 1, got ${max}`);
  }

  /** Starts waiting for a place now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `start` once a place is free and settles as it does; a start that fails frees its place like one
   * that succeeds, so one server's refusal never holds the others back.
   */
  async run<T>(start: () => Promise<T>): Promise<T> {
    if (this.running >= this.max || this.queue.length > 0) {
      await new Promise<void>((resolve) => this.queue.push(resolve));
      await nextTurn();
    } else {
      this.running += 1;
    }
    try {
      return await start();
    } finally {
      this.handOn();
    }
  }

  /** Gives the finished start's place to the next one waiting, or frees it. */
  private handOn(): void {
    const next = this.queue.shift();
    if (next === undefined) this.running -= 1;
    else next();
  }
}
