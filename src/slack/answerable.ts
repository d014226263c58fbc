// Whether this person may answer this question now; every listener asks before acting.
import type { Relay } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import type { Audience } from './audience.js';
import type { Refusal } from './texts.js';

/** Who acts, as an interaction payload says: the user, the workspace, and the app it was sent to. */
export interface Actor {
  user: { id: string };
  team?: { id: string } | null;
  api_app_id?: string;
}

/** Whether a user is among a question's answerers (Audience.mayAnswer). */
export type MayAnswer = (question: Question, userId: string) => Promise<boolean>;

/**
 * The question when this actor may answer it now, or why they may not. The payload's workspace (team.id)
 * and app (api_app_id) must be the ones the question came from, when the question recorded them.
 */
export async function answerable(
  question: Question | undefined,
  actor: Actor,
  mayAnswer: MayAnswer,
): Promise<{ question: Question } | { refusal: Refusal }> {
  if (!question) return { refusal: { ended: 'missing' } };
  const { teamId, appId } = question.origin;
  if ((teamId && actor.team?.id !== teamId) || (appId && actor.api_app_id !== appId)) {
    return { refusal: { otherWorkspace: true } };
  }
  if (question.state !== 'pending') return { refusal: { ended: question.state } };
  if (!(await mayAnswer(question, actor.user.id))) return { refusal: { notFor: question } };
  return { question };
}

/** The question `id` when this actor may answer it now (by its stored answerers), or why not. */
export async function checkAnswerer(
  deps: { relay: Pick<Relay, 'get'>; surface: { audience: Pick<Audience, 'mayAnswer'> } },
  id: string,
  actor: Actor,
): Promise<{ question: Question } | { refusal: Refusal }> {
  const question = await deps.relay.get(id);
  return answerable(question, actor, (q, user) => deps.surface.audience.mayAnswer(q, user));
}
