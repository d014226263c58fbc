// Which question each URL-mode link belongs to. A 2025 link's (the server names it, and may say its step is
// done with notifications/elicitation/complete) is kept here, in the memory of the replica that asked it; a 2026
// round link's (the hub names it, see round-links.ts) in the RoundLinkStore every replica shares.
import type { RelayStore } from './ports.js';
import { endWaitsForCall, isRoundLink, type RoundLink, type RoundLinkStore } from './round-links.js';
import { cardsOf, type CardRef, type Question } from './types.js';

/** 2025 URL-mode questions remembered for notifications/elicitation/complete; the oldest go first beyond this. */
const URL_QUESTIONS_MAX = 10_000;

export class UrlQuestions {
  /** Question ids of the 2025 URL-mode questions asked here, by server and elicitationId. */
  private readonly asked = new Map<string, string>();

  constructor(
    private readonly store: Pick<RelayStore, 'get'>,
    private readonly links: RoundLinkStore,
  ) {}

  /** Notes a URL question: a 2026 round link's for every replica, a 2025 one's here (for take). */
  async remember(question: Question): Promise<void> {
    if (!question.url) return;
    const { elicitationId } = question.url;
    if (isRoundLink(elicitationId)) {
      await this.links.note({ server: question.server, elicitationId }, question.id, question.timeoutMs);
      return;
    }
    const oldest = this.asked.keys().next();
    if (this.asked.size >= URL_QUESTIONS_MAX && !oldest.done) this.asked.delete(oldest.value);
    this.asked.set(urlKey(question.server, elicitationId), question.id);
  }

  /** The id of the 2025 question asked here for this link, forgotten now (its step is done); else undefined. */
  take(server: string, elicitationId: string): string | undefined {
    const key = urlKey(server, elicitationId);
    const id = this.asked.get(key);
    this.asked.delete(key);
    return id;
  }

  /** The cards of the previous round's question for the same 2026 URL request, on whichever replica it was asked. */
  async previousCards(link: RoundLink): Promise<CardRef[] | undefined> {
    const id = await this.links.latest(link);
    const previous = id === undefined ? undefined : await this.store.get(id);
    const cards = previous === undefined ? [] : cardsOf(previous);
    return cards.length > 0 ? cards : undefined;
  }

  /** The call of a 2026 URL request ended: its last question, forgotten now so that it is settled once. */
  async settle(link: RoundLink): Promise<Question | undefined> {
    const id = await this.links.settle(link);
    return id === undefined ? undefined : await this.store.get(id);
  }

  /** A round link's card whose call has not ended yet (settle has not run for it). */
  async waitsForCall(question: Question): Promise<boolean> {
    const link = question.url;
    if (link === undefined || !endWaitsForCall(question)) return false;
    const latest = await this.links.latest({ server: question.server, elicitationId: link.elicitationId });
    return latest === question.id;
  }
}

const urlKey = (server: string, elicitationId: string): string => `${server}\u0000${elicitationId}`;
