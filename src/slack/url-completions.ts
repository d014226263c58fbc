// The links of -32042 answers being waited on. A server says that the out-of-band step of each link is done
// with notifications/elicitation/complete (on the session of the replica that ran the call, so on this
// one); once every link of one answer is done, its call can be retried without waiting for the person.
import { systemClock, type Clock } from '../clock.js';

/** How long an answer's links are watched, in ms: 15 minutes (an idle MCP session closes after 10). */
export const URL_WATCH_MS = 15 * 60_000;
/**
 * How long a link completed before anyone watched it is remembered, in ms: the server may say so right after
 * its -32042 answer, before the run has posted the links and watches them.
 */
export const EARLY_COMPLETION_MS = 60_000;
/** Links remembered so at most; past it the oldest is forgotten. */
const EARLY_COMPLETIONS_MAX = 1_000;

interface Watch {
  left: Set<string>;
  allDone: () => void;
  /** Told when the watch ends before every link is done (it lapsed, or the bot is stopping). */
  lapsed: () => void;
  /** Ends the watch when it lapses (after ttlMs). */
  cancelLapse: () => void;
}

export class UrlCompletions {
  /** The watches of each server and elicitationId (two runs may wait on the same link). */
  private readonly waiting = new Map<string, Set<Watch>>();
  /** Links completed while nobody watched them, each with the cancel of its forgetting (oldest first). */
  private readonly early = new Map<string, () => void>();
  private closed = false;
  private readonly ttlMs: number;
  private readonly clock: Pick<Clock, 'schedule'>;

  constructor(
    opts: {
      /** How long a watch lasts, in ms; default URL_WATCH_MS. */
      ttlMs?: number;
      /** Timers, for tests; default the system clock (unref'd: a watch never keeps the process alive). */
      clock?: Pick<Clock, 'schedule'>;
    } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? URL_WATCH_MS;
    this.clock = opts.clock ?? systemClock;
  }

  /**
   * Calls `allDone` once, when every one of `ids` of `server` is complete, or else `lapsed` once, when the
   * watch lapses or the bot stops first.
   */
  watch(server: string, ids: string[], allDone: () => void, lapsed: () => void = () => undefined): void {
    const keys = [...new Set(ids)].map((id) => keyOf(server, id));
    if (keys.length === 0) return;
    const left = keys.filter((key) => !this.early.has(key));
    if (left.length === 0) return allDone();
    const watch: Watch = { left: new Set(left), allDone, lapsed, cancelLapse: () => undefined };
    watch.cancelLapse = this.clock.schedule(() => this.forget(watch), this.ttlMs);
    for (const key of left) this.waiting.set(key, (this.waiting.get(key) ?? new Set()).add(watch));
  }

  /**
   * The server finished the step of `elicitationId`. An id nobody watches is remembered for
   * EARLY_COMPLETION_MS, for a watch about to start; after that, or once closed, it is ignored.
   */
  completed(server: string, elicitationId: string): void {
    const key = keyOf(server, elicitationId);
    const watches = this.waiting.get(key);
    this.waiting.delete(key);
    if (watches === undefined) return this.remember(key);
    for (const watch of watches) {
      watch.left.delete(key);
      if (watch.left.size > 0) continue;
      watch.cancelLapse();
      watch.allDone();
    }
  }

  /** Stops every watch, and forgets every early completion (shutdown). */
  close(): void {
    this.closed = true;
    for (const watches of [...this.waiting.values()]) for (const watch of watches) this.forget(watch);
    for (const cancel of this.early.values()) cancel();
    this.early.clear();
  }

  private remember(key: string): void {
    if (this.closed || this.early.has(key)) return;
    const oldest = this.early.keys().next();
    if (this.early.size >= EARLY_COMPLETIONS_MAX && oldest.done !== true) {
      this.early.get(oldest.value)?.();
      this.early.delete(oldest.value);
    }
    this.early.set(
      key,
      this.clock.schedule(() => this.early.delete(key), EARLY_COMPLETION_MS),
    );
  }

  private forget(watch: Watch): void {
    if (watch.left.size > 0) watch.lapsed();
    watch.cancelLapse();
    for (const key of watch.left) {
      const watches = this.waiting.get(key);
      watches?.delete(watch);
      if (watches?.size === 0) this.waiting.delete(key);
    }
    watch.left.clear();
  }
}

const keyOf = (server: string, elicitationId: string): string => `${server}\u0000${elicitationId}`;
