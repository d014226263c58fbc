// 2026-07-28 URL requests (MRTR) have no elicitationId and no completion notification: the hub names each
// `mrtr:<call id>:<key>`, the same in every round of one call that asks under that key. Accepting the card is
// consent, and the retry tells whether the flow finished: when the server asks for the same link again, the
// next round's question takes over the previous one's card (the same message is updated, with Retry and
// Cancel). So a round link's card does not show its end while the call goes on: that update would race the
// next round's in the outbox, which keeps no order between them. It shows its end when the call ends
// (Relay.settleLinks), and never when the next round took the card. Which question was the latest for each
// link is kept in Redis (RoundLinkStore), not in the asking replica's memory: a durable round taken over by
// another replica (src/rounds) asks the link again there, and the call may end there.
import type { EndReason, Question } from './types.js';

const ROUND_LINK_PREFIX = 'mrtr:';

/** The ends after which the call goes on with a retry (the server may ask for the link again). */
const CALL_GOES_ON: readonly EndReason[] = ['answered', 'declined', 'closed', 'timed_out'];

/** A 2026 URL request's question (its id given by the hub). */
export const isRoundLink = (elicitationId: string): boolean => elicitationId.startsWith(ROUND_LINK_PREFIX);

/** This ended question's card waits for its call to end (or for the next round to take it over). */
export function endWaitsForCall(question: Pick<Question, 'url' | 'reason'>): boolean {
  if (question.url === undefined || !isRoundLink(question.url.elicitationId)) return false;
  return question.reason !== undefined && CALL_GOES_ON.includes(question.reason);
}

/** A 2026 URL request of one call: the asking server and the hub's `mrtr:` id. */
export interface RoundLink {
  server: string;
  elicitationId: string;
}

/**
 * The latest question asked for each 2026 URL request, shared by every replica (src/store): the next round, on
 * whichever replica asks it, takes over that question's card, and the replica where the call ends settles it.
 */
export interface RoundLinkStore {
  /** Notes `questionId` as the latest question of `link`, kept as long as its record (timeout + retention). */
  note(link: RoundLink, questionId: string, timeoutMs: number): Promise<void>;
  /** The latest question of `link`, until it is settled; undefined when none (or it expired). */
  latest(link: RoundLink): Promise<string | undefined>;
  /** The call ended: answers the latest question of `link` and forgets it, so it is settled once. */
  settle(link: RoundLink): Promise<string | undefined>;
}
