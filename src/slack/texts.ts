// Short texts people see when an interaction cannot proceed. Plain data; no Slack calls.
import type { QuestionState } from '../relay/types.js';

export function notPendingText(state: QuestionState | 'missing'): string {
  switch (state) {
    case 'accepted':
      return 'This question has already been answered.';
    case 'declined':
      return 'This question has already been declined.';
    case 'cancelled':
    case 'missing':
      return 'This question has expired or was withdrawn; there is nothing left to answer.';
    case 'pending':
      return 'This question is still open.';
  }
}

export function notYoursText(userId: string): string {
  return `This question is for <@${userId}>; only they can answer it.`;
}

export function otherWorkspaceText(): string {
  return 'This question was asked in another workspace or app; it cannot be answered from here.';
}

/** A modal that replaces the form when the question ended before the submit arrived. */
export function finishedView(text: string) {
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: 'Nothing to answer' },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: [{ type: 'section' as const, text: { type: 'plain_text' as const, text } }],
  };
}
