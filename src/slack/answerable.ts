// Whether this person may answer this question now; every listener asks before acting.
import type { Question } from '../relay/types.js';
import { notPendingText, notYoursText } from './texts.js';

/** The question when this user may answer it now, or why they may not. */
export function answerable(
  question: Question | undefined,
  userId: string,
): { question: Question } | { refusal: string } {
  if (!question) return { refusal: notPendingText('missing') };
  if (question.state !== 'pending') return { refusal: notPendingText(question.state) };
  if (question.userId !== userId) return { refusal: notYoursText(question.userId) };
  return { question };
}
