// When a trouble that lasts gets a log line: /readyz's check timing out or failing on every probe (Kubernetes
// probes every 10 s), Socket Mode failing to connect at each attempt of its backoff, Slack refusing the app-level
// token, Redis out of memory. One line per occurrence would run for ever, and a trouble that comes and goes
// (answering in between) would still write one per occurrence. So an occurrence gets a line when
//   - it is the first, or 5 min (LOG_AGAIN_AFTER_MS) have passed since the last occurrence's line (each line
//     counting those left unlogged since the line before, across streaks), or
//   - the caller names its kind (a refusal's code) and it differs from the last line's, or
//   - it starts a streak right after a line that said the trouble was over: an operator who read "answering
//     again" is told at once that it is not. At most RETURNS_TOLD_MAX such lines in 5 min: a trouble that flaps
//     faster is told by the 5-min lines' counts from then on;
// and a streak's end gets a line exactly when one of its occurrences got one, so the last line always says
// whether the trouble is on. The bound, for a trouble that flaps as fast as it can: per 5 min, the timed line
// and RETURNS_TOLD_MAX returns, each with its end: 8 lines, ~96 an hour, plus one per change of kind. The
// callers write the lines (readiness-log.ts, socket-outage-log.ts, redis-memory-log.ts, app-token-status.ts);
// this only counts.
import type { Clock } from './clock.js';

/** How long after a line the trouble is logged again at the earliest, in ms: 5 min. */
export const LOG_AGAIN_AFTER_MS = 300_000;
/** Streaks right after an end line told at once, at most, within LOG_AGAIN_AFTER_MS. */
export const RETURNS_TOLD_MAX = 3;

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
  /** When the last occurrence's line was written (epoch ms), and its kind; loggedAt undefined before the first. */
  private loggedAt: number | undefined;
  private loggedKind: string | undefined;
  /** Occurrences since the last line that none told of. */
  private unlogged = 0;
  /** Whether the last line written was a streak's end. */
  private saidOver = false;
  /** When the returns told at once were told (epoch ms), the last LOG_AGAIN_AFTER_MS's only. */
  private returnsTold: number[] = [];

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /**
   * One more occurrence, of `kind` when the caller tells kinds apart: what its line says, or undefined when it
   * gets none (see the top of this file).
   */
  occurred(kind?: string): StreakLine | undefined {
    const now = this.clock.now();
    const streak = (this.streak ??= { since: now, count: 0, logged: false });
    streak.count += 1;
    if (!this.lineDue(now, streak.count === 1, kind)) {
      this.unlogged += 1;
      return undefined;
    }
    const line = { count: streak.count, sinceLastLine: this.unlogged + 1, forMs: now - streak.since };
    this.loggedAt = now;
    this.loggedKind = kind;
    this.unlogged = 0;
    this.saidOver = false;
    streak.logged = true;
    return line;
  }

  /** The trouble is over: what the line saying so says, or undefined when no line told of this streak (or none ran). */
  ended(): StreakEnd | undefined {
    const streak = this.streak;
    this.streak = undefined;
    if (!streak?.logged) return undefined;
    this.saidOver = true;
    return { count: streak.count, forMs: this.clock.now() - streak.since };
  }

  private lineDue(now: number, startsStreak: boolean, kind: string | undefined): boolean {
    if (this.loggedAt === undefined || now - this.loggedAt >= LOG_AGAIN_AFTER_MS) return true;
    if (kind !== this.loggedKind) return true;
    if (!startsStreak || !this.saidOver) return false;
    this.returnsTold = this.returnsTold.filter((at) => now - at < LOG_AGAIN_AFTER_MS);
    if (this.returnsTold.length >= RETURNS_TOLD_MAX) return false;
    this.returnsTold.push(now);
    return true;
  }
}
