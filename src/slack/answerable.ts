// Whether this person may answer this question now; every listener asks before acting.
import type { Question } from '../relay/types.js';
import { notPendingText, notYoursText, otherWorkspaceText } from './texts.js';

/** Who acts, as an interaction payload says: the user, the workspace, and the app it was sent to. */
export interface Actor {
  user: { id: string };
  team?: { id: string } | null;
  api_app_id?: string;
}

/**
 * The question when this actor may answer it now, or why they may not. The payload's workspace (team.id)
 * and app (api_app_id) must be the ones the question came from, when the question recorded them.
 */
export function answerable(
  question: Question | undefined,
  actor: Actor,
): { question: Question } | { refusal: string } {
  if (!question) return { refusal: notPendingText('missing') };
  const { teamId, appId } = question.origin;
  if ((teamId && actor.team?.id !== teamId) || (appId && actor.api_app_id !== appId)) {
    return { refusal: otherWorkspaceText() };
  }
  if (question.state !== 'pending') return { refusal: notPendingText(question.state) };
  if (question.userId !== actor.user.id) return { refusal: notYoursText(question.userId) };
  return { question };
}
