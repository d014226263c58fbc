// The answering service as the tests that drive it by hand build it: a clock whose scheduled work (the service's
// 1.5 s reply bound) runs only when the test fires it, every person allowed to answer, one answer policy for
// every server.
import type { AnswerPolicy } from '../../src/answering/decide.js';
import { Answering, type AnsweringOptions } from '../../src/answering/service.js';
import { systemClock } from '../../src/clock.js';
import type { EndReason, FinishResult, Question } from '../../src/relay/types.js';
import type { Audience } from '../../src/slack/audience.js';
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

/**
 * The answering service over one stored question, deciding who may answer with `audience` (Slack's channel
 * members), on the system clock (a real 1.5 s reply bound); each end is a won decline of it.
 */
export function answeringOver(stored: Question, audience: Pick<Audience, 'mayAnswer'>): Answering {
  const end = async (
    _id: string,
    _outcome: unknown,
    reason: EndReason,
    options: { beforeCard?: (r: FinishResult) => Promise<void> } = {},
  ): Promise<FinishResult> => {
    const result: FinishResult = { won: true, question: { ...stored, state: 'declined', reason } };
    await options.beforeCard?.(result);
    return result;
  };
  return new Answering({
    store: {
      get: () => Promise.resolve(stored),
      draft: () => Promise.resolve(undefined),
      saveDraft: () => Promise.resolve(true),
    },
    relay: { end },
    mayAnswer: (q, userId) => audience.mayAnswer(q, userId),
    policyOf: () => ({ review: 'never', onClose: 'cancel' }),
    patterns: new PatternTimeouts(createLogger('silent')),
    clock: systemClock,
  });
}
