// What the tests of decide() share: a pending question asked of U1 in T1 with a given schema, and that person's
// situation (among the answerers, no draft, no review) with one act.
import type { Act, AnswerPolicy, Situation } from '../../src/answering/decide.js';
import type { Question } from '../../src/relay/types.js';
import { question as pendingQuestion } from '../support/question.js';

export function question(schema: unknown, extra: Partial<Question> = {}): Question {
  return pendingQuestion({ origin: { userId: 'U1', teamId: 'T1' }, requestedSchema: schema, ...extra });
}

const noReview: AnswerPolicy = { review: 'never', onClose: 'cancel' };

export function situation(q: Question | undefined, act: Act, extra: Partial<Situation> = {}): Situation {
  return {
    question: q,
    actor: { user: { id: 'U1' }, team: { id: 'T1' } },
    mayAnswer: true,
    draft: undefined,
    act,
    policy: noReview,
    ...extra,
  };
}
