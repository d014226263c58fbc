// The answering service as the tests that drive it by hand build it: a clock whose scheduled work (the service's
// 1.5 s reply bound) runs only when the test fires it, every person allowed to answer, one answer policy for
// every server.
import type { AnswerPolicy } from '../../src/answering/decide.js';
import { Answering, type AnsweringOptions } from '../../src/answering/service.js';
import type { RelayClock } from '../../src/relay/relay.js';
import { createLogger } from '../../src/logger.js';
import { PatternTimeouts } from '../../src/pattern-timeouts.js';

export type ManualClock = RelayClock & { fire(): void };

/** A clock at 0 whose scheduled work runs only when the test calls `fire`. */
export function manualClock(): ManualClock {
  const due: (() => void)[] = [];
  return {
    now: () => 0,
    schedule: (fn) => {
      due.push(fn);
      return () => due.splice(due.indexOf(fn), 1);
    },
    fire: () => due.splice(0).forEach((fn) => fn()),
  };
}

/** An Answering over `store` and `relay` on `clock`, where anyone may answer and `policy` is every server's. */
export function answeringWith(
  parts: Pick<AnsweringOptions, 'store' | 'relay' | 'clock'>,
  policy: AnswerPolicy,
): Answering {
  return new Answering({
    ...parts,
    mayAnswer: () => Promise.resolve(true),
    policyOf: () => policy,
    patterns: new PatternTimeouts(createLogger('silent')),
  });
}
