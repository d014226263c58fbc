// A `pattern` from an MCP server or an API client, read and tested against a person's text. Its dialect is the
// sender's (Python's `(?i)`, Annex B's `[\_]`): read as ECMA-262 with the `u` flag, else without it, else not at
// all (left to the sender, who checks the answer itself). Its cost is the sender's too: a pattern that
// backtracks catastrophically (`^(a+)+$` against 30 a's and a "!") held the event loop for minutes, every
// workspace and timer of the replica with it, so every test runs bounded in time (PATTERN_TEST_MS) in a vm
// context and one that runs out counts as no match. The bound is on the work a test does: vm's timeout is wall
// time, so a test the machine did not run for its bound (descheduled on a loaded host, the process stopped) is
// run again rather than taken for a catastrophic one. Computation only, no I/O: who is told of a timeout is the
// caller's (withPatternTimeouts).
import { createContext, Script } from 'node:vm';
import type { CodeOptions } from 'ajv';

/** ajv's regex engine and what it makes (its types, not exported by name). */
type RegExpEngine = NonNullable<CodeOptions['regExp']>;
type RegExpLike = ReturnType<RegExpEngine>;

/**
 * Longest one test of a sender's pattern against one text may run, in ms. A sane pattern takes microseconds on
 * an answer of Slack's 3000 characters; this bounds a catastrophic one to a pause no one notices, far inside
 * Slack's 3 s for the reply that carries the "does not match" error.
 */
export const PATTERN_TEST_MS = 50;

/**
 * `pattern` as ECMA-262 reads it, with the `u` flag (as ajv compiles patterns) or, failing that, without it
 * (Annex B: `[\_]`, `\-`, `a{`); undefined when neither reading takes it.
 */
export function ecmaRegExp(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // The next reading, if any.
    }
  }
  return undefined;
}

/** One context and one compiled script for every test: a new context per test costs ~1 ms, this ~0.07 ms. */
const sandbox: { regex: RegExp | undefined; text: string } = { regex: undefined, text: '' };
const context = createContext(sandbox);
const script = new Script('regex.test(text)');

/** Whom the patterns that run out of time are told to, while withPatternTimeouts runs; see there. */
let watch:
  { report: (pattern: string) => void; timedOut: Set<string>; starvedRerunsLeft: number } | undefined;

/**
 * Runs `run` (synchronous: validation), telling `report` once of each pattern that ran out of time in it (never
 * the text it was tested on). Within it, a pattern that ran out once is not run again (no match): an array of
 * answers under one such pattern costs one bound, not one per item; and the runs again of starved tests
 * (boundedTest) are shared, so many patterns, each its own, cost about one bound each, on a loaded host too.
 * Outside it, each test is bounded all the same.
 */
export function withPatternTimeouts<T>(report: (pattern: string) => void, run: () => T): T {
  const outer = watch;
  watch = { report, timedOut: new Set(), starvedRerunsLeft: STARVED_RUNS_MAX - 1 };
  try {
    return run();
  } finally {
    watch = outer;
  }
}

/**
 * A run the wall-clock bound cut short with less than this much of the process's CPU spent (ms) was starved, not
 * computing: a sane pattern needs well under 1 ms, a catastrophic one computing alone spends nearly all its 50.
 */
const STARVED_CPU_MS = PATTERN_TEST_MS / 2;
/**
 * Runs of one test, starved ones included: a host starving the process for longer ends the test as a timeout,
 * after at most this many bounds of wall time.
 */
const STARVED_RUNS_MAX = 4;

/** CPU the process spent since `since` (process.cpuUsage), ms: user and system, every thread. */
const cpuMsSince = (since: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/**
 * Whether `regex` matches `text`, run for at most PATTERN_TEST_MS of work; a test that runs out of time is no
 * match. A run the vm cut short at its wall-clock bound with less than STARVED_CPU_MS of the process's CPU spent
 * (the process's, not the thread's, which Node 20 cannot read: a busy second thread makes it a timeout, as
 * before) was not computing but waiting for a core, and is run again from the start (starvedRerun).
 */
export function boundedTest(regex: RegExp, text: string): boolean {
  const key = regex.toString();
  if (watch?.timedOut.has(key) === true) return false;
  sandbox.regex = regex;
  sandbox.text = text;
  try {
    for (let run = 1; ; run += 1) {
      const started = process.cpuUsage();
      try {
        return script.runInContext(context, { timeout: PATTERN_TEST_MS }) === true;
      } catch (error) {
        if (!isTimeout(error)) throw error;
        if (run < STARVED_RUNS_MAX && cpuMsSince(started) < STARVED_CPU_MS && starvedRerun()) continue;
      }
      watch?.timedOut.add(key);
      watch?.report(regex.source);
      return false;
    }
  } finally {
    // Not kept past the test: the text is a person's answer.
    sandbox.regex = undefined;
    sandbox.text = '';
  }
}

/**
 * Whether a starved test may run again: within withPatternTimeouts, while its validation's shared budget lasts (a
 * sane pattern's test takes microseconds, so one starved twice in a validation is rare; a hostile sender's many
 * catastrophic patterns on a loaded host would each take STARVED_RUNS_MAX bounds); outside it, always.
 */
function starvedRerun(): boolean {
  if (watch === undefined) return true;
  if (watch.starvedRerunsLeft <= 0) return false;
  watch.starvedRerunsLeft -= 1;
  return true;
}

function isTimeout(error: unknown): boolean {
  // By its code: the error may come from the context's realm, where `instanceof Error` does not hold.
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
  );
}

/**
 * A pattern as ajv's compiled validators test it. toString is ajv's key for the pattern in its code scope
 * (patterns with equal keys share one object), so it is the regex's own.
 */
class BoundedPattern implements RegExpLike {
  constructor(private readonly regex: RegExp) {}

  test(text: string): boolean {
    return boundedTest(this.regex, text);
  }

  toString(): string {
    return this.regex.toString();
  }
}

/**
 * ajv's regex engine (its `code.regExp` option): each pattern read by ecmaRegExp (ajv's `u` argument is its
 * first reading), tested by boundedTest. A pattern no reading takes throws, as `new RegExp` does, so ajv refuses
 * the schema; callers drop such a pattern first (fields.ts, tool-schema-checks.ts).
 */
export const boundedRegExp: RegExpEngine = Object.assign(
  (pattern: string): RegExpLike => {
    const regex = ecmaRegExp(pattern);
    if (regex === undefined) throw new SyntaxError(`Invalid regular expression: /${pattern}/`);
    return new BoundedPattern(regex);
  },
  // Only ajv's standalone code (not used here) writes this out, as the engine's source.
  { code: 'boundedRegExp' },
);
