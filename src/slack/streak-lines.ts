// When a trouble that lasts gets a log line: /readyz's check timing out or failing on every probe (Kubernetes
// probes every 10 s), Socket Mode failing to connect at each attempt of its backoff. One line per occurrence
// would run for ever, and a trouble that comes and goes (answering in between) would still write one per
// occurrence: a line at the first, then at most one every LOG_AGAIN_AFTER_MS however the occurrences come (each
// counting those left unlogged since the line before, across streaks), and a line at a streak's end only when
// a line told of it. The callers write the lines (readiness-log.ts, socket-outage-log.ts); this only counts.
import type { Clock } from '../clock.js';

/** How long after a line the trouble is logged again at the earliest, in ms: 5 min. */
export const LOG_AGAIN_AFTER_MS = 300_000;

/** What an occurrence's line says. */
export interface StreakLine {
  /** Occurrences in this streak so far, this one included. */
  count: number;
  /** Occurrences since the last line (of this streak or one before), this one included. */
  sinceLastLine: number;
  /** From the streak's first occurrence to this one, in ms. */
  forMs: number;
}

/** What the line at a streak's end says. */
export interface StreakEnd {
  count: number;
  /** From the streak's first occurrence to its end, in ms. */
  forMs: number;
}

/** Occurrences with nothing between them that says the trouble is over. */
interface Streak {
  /** When its first occurrence came (epoch ms, the injected clock). */
  since: number;
  count: number;
  /** Whether a line told of it: only then is its end logged. */
  logged: boolean;
}

export class StreakLines {
  private streak: Streak | undefined;
  /** When the last occurrence's line was written (epoch ms); undefined before the first. */
  private loggedAt: number | undefined;
  /** Occurrences since the last line that none told of. */
  private unlogged = 0;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** One more occurrence: what its line says, or undefined when a line was written under 5 min ago. */
  occurred(): StreakLine | undefined {
    const now = this.clock.now();
    const streak = (this.streak ??= { since: now, count: 0, logged: false });
    streak.count += 1;
    if (this.loggedAt !== undefined && now - this.loggedAt < LOG_AGAIN_AFTER_MS) {
      this.unlogged += 1;
      return undefined;
    }
    const line = { count: streak.count, sinceLastLine: this.unlogged + 1, forMs: now - streak.since };
    this.loggedAt = now;
    this.unlogged = 0;
    streak.logged = true;
    return line;
  }

  /** The trouble is over: what the line saying so says, or undefined when no line told of this streak (or none ran). */
  ended(): StreakEnd | undefined {
    const streak = this.streak;
    this.streak = undefined;
    if (!streak?.logged) return undefined;
    return { count: streak.count, forMs: this.clock.now() - streak.since };
  }
}
