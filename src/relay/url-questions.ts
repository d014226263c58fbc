// Which question each URL-mode link belongs to. A 2025 link's (the server names it, and may say its step is
// done with notifications/elicitation/complete) is kept here, in the memory of the replica that asked it, while
// its question is pending, and once it ended accepted (the person opened the link) for COMPLETE_WAIT_MS, for the
// server's late complete to show the step done on its card; one that ended otherwise is forgotten at once (a
// complete is ignored for it anyway). A 2026 round link's (the hub names it, see round-links.ts) is kept in the
// RoundLinkStore every replica shares.
import type { RelayClock, RelayStore } from './ports.js';
import { endWaitsForCall, isRoundLink, type RoundLink, type RoundLinkStore } from './round-links.js';
import { cardsOf, type CardRef, type Outcome, type Question } from './types.js';

/**
 * How long an accepted 2025 URL-mode question is remembered after it ended, in ms: 1 h, for the step behind its
 * link (a sign-in, a payment at the server's page) to be done and reported. A complete after that is ignored.
 */
export const COMPLETE_WAIT_MS = 60 * 60_000;

/** Accepted 2025 URL-mode questions remembered at most; the oldest go first beyond this. */
export const URL_QUESTIONS_MAX = 10_000;

/** An accepted question remembered for a late complete, and the cancel of its forgetting. */
interface Accepted {
  id: string;
  cancel: () => void;
}

export class UrlQuestions {
  /** Question ids of the pending 2025 URL-mode questions asked here, by server and elicitationId. */
  private readonly asked = new Map<string, string>();
  /** The accepted ones, by the same key, the oldest first. */
  private readonly accepted = new Map<string, Accepted>();

  constructor(
    private readonly store: Pick<RelayStore, 'get'>,
    private readonly links: RoundLinkStore,
    private readonly clock: Pick<RelayClock, 'schedule'>,
  ) {}

  /** 2025 links remembered (pending and accepted questions). */
  get held(): number {
    return this.asked.size + this.accepted.size;
  }

  /** Notes a URL question: a 2026 round link's for every replica, a 2025 one's here (for take). */
  async remember(question: Question): Promise<void> {
    if (!question.url) return;
    const { elicitationId } = question.url;
    if (isRoundLink(elicitationId)) {
      await this.links.note({ server: question.server, elicitationId }, question.id, question.timeoutMs);
      return;
    }
    this.asked.set(urlKey(question.server, elicitationId), question.id);
  }

  /**
   * A question asked here ended with `outcome` (undefined: its ask failed): a 2025 link's is forgotten, or when
   * accepted kept for COMPLETE_WAIT_MS. A link asked again since keeps its newer question.
   */
  ended(question: Question, outcome: Outcome | undefined): void {
    if (question.url === undefined || isRoundLink(question.url.elicitationId)) return;
    const key = urlKey(question.server, question.url.elicitationId);
    if (this.asked.get(key) !== question.id) return;
    this.asked.delete(key);
    if (outcome?.action !== 'accept') return;
    this.forget(key);
    const oldest = this.accepted.keys().next();
    if (this.accepted.size >= URL_QUESTIONS_MAX && !oldest.done) this.forget(oldest.value);
    const forget = () => this.accepted.delete(key);
    this.accepted.set(key, { id: question.id, cancel: this.clock.schedule(forget, COMPLETE_WAIT_MS) });
  }

  /** The id of the 2025 question asked here for this link, forgotten now (its step is done); else undefined. */
  take(server: string, elicitationId: string): string | undefined {
    const key = urlKey(server, elicitationId);
    const id = this.asked.get(key) ?? this.accepted.get(key)?.id;
    this.asked.delete(key);
    this.forget(key);
    return id;
  }

  /** Forgets the accepted question of `key`, if any, and its timer. */
  private forget(key: string): void {
    this.accepted.get(key)?.cancel();
    this.accepted.delete(key);
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
