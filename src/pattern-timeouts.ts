// Who is told when a sender's `pattern` ran out of time against a person's answer (blocks/patterns.ts: the test
// is bounded, and counts as no match): the operators, at warn, once per sender and pattern, so a server or an
// API client whose pattern backtracks catastrophically can be found and told. The answer is never logged.
import { PATTERN_TEST_MS, withPatternTimeouts } from '../blocks/index.js';
import type { Logger } from './logger.js';

/** Whose pattern it is: an MCP server's (by its configured name) or an Automations API client's. */
export type PatternSender = { server: string } | { client: string };

/** Sender and pattern pairs remembered as logged; past it the memory starts over (a pair may be logged again). */
const LOGGED_MAX = 1_000;
/** Characters of a pattern logged: a server's pattern may be of any length. */
const PATTERN_LOGGED_MAX = 500;

export class PatternTimeouts {
  private readonly logged = new Set<string>();

  constructor(private readonly logger: Pick<Logger, 'warn'>) {}

  /** Runs `run` (synchronous: an answer's validation), logging each of `sender`'s patterns that ran out in it. */
  within<T>(sender: PatternSender, run: () => T): T {
    return withPatternTimeouts((pattern) => this.timedOut(sender, pattern), run);
  }

  private timedOut(sender: PatternSender, pattern: string): void {
    const key = JSON.stringify([sender, pattern]);
    if (this.logged.has(key)) return;
    if (this.logged.size >= LOGGED_MAX) this.logged.clear();
    this.logged.add(key);
    this.logger.warn(
      { ...sender, pattern: pattern.slice(0, PATTERN_LOGGED_MAX), limitMs: PATTERN_TEST_MS },
      'A pattern ran out of time against an answer, which was taken as not matching it',
    );
  }
}
