// Posting a question's cards and showing its end on them. A question whose cards could not all be posted ends
// at once ('delivery_failed') rather than time out unseen; one that ended before its cards were attached (a click
// can beat attachCards by milliseconds) had a winner that saw no card, so its poster shows the end.
import { relayErrorCode } from './errors.js';
import type { PostedCards, RelayLogger, RelayStore, Surface } from './ports.js';
import type { UrlQuestions } from './url-questions.js';
import type { Question } from './types.js';

export interface CardDeliveryOptions {
  store: Pick<RelayStore, 'attachCards' | 'get'>;
  surface: Surface;
  urls: Pick<UrlQuestions, 'waitsForCall'>;
  logger: RelayLogger;
  /** Ends a question some of whose people will never see it (Relay.end with 'delivery_failed'). */
  endUndelivered: (id: string) => Promise<unknown>;
}

export class CardDelivery {
  /**
   * Card posts in flight (settled awaits them): a stopping replica closes its outbox after them, so a card
   * already in Slack is never taken for undelivered ('delivery_failed') and its question ended behind it.
   */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: CardDeliveryOptions) {}

  /** Posts the question's cards and attaches them to it; a failure ends the question. */
  deliver(question: Question, queued?: () => void): Promise<void> {
    const delivery = this.post(question, queued);
    const tracked: Promise<unknown> = delivery
      .catch(() => undefined)
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return delivery;
  }

  private async post(question: Question, queued?: () => void): Promise<void> {
    const {
      cards: [first, ...more],
      failure,
    } = await this.postCards(question, queued);
    if (first === undefined) return this.failDelivery(question.id, failure);
    const state = await this.options.store.attachCards(question.id, [first, ...more]);
    // Some of the people asked would never see it: it ends now (the cards that are out say so).
    if (failure !== undefined) return this.failDelivery(question.id, failure);
    if (state === 'pending' || state === 'missing') return;
    // It ended before the cards were attached, so its winner saw none: they are ours to update.
    const finished = await this.options.store.get(question.id);
    if (finished?.card) {
      await this.showEnd(
        finished,
        (await this.options.urls.waitsForCall(finished)) ? 'ended_card_waits' : 'ended',
      );
    }
  }

  /**
   * Posts a detached question's cards in the background; resolves once the posts are queued (durable), or the
   * delivery is over (failed and the question ended).
   */
  async deliverDetached(question: Question): Promise<void> {
    let queued = (): void => undefined;
    const isQueued = new Promise<void>((resolve) => (queued = resolve));
    const delivery = this.deliver(question, queued).catch((error: unknown) =>
      logFailure(this.options.logger, question.id, error),
    );
    await Promise.race([isQueued, delivery]);
  }

  /** Waits for the card posts in flight. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** The card shows the question's end (or, for 'ended_card_waits', only those who follow are told). */
  async showEnd(
    question: Question,
    kind: 'ended' | 'ended_card_waits' | 'settled',
    handOff = false,
  ): Promise<void> {
    const byUserId = question.endedBy;
    const change = { kind, ...(byUserId ? { byUserId } : {}), ...(handOff ? { handOff } : {}) };
    await this.options.surface.updateCard(question, change);
  }

  /** Someone asked will never see this question: it ends now rather than time out silently. */
  private async failDelivery(id: string, failure: unknown): Promise<void> {
    logFailure(this.options.logger, id, failure);
    await this.options.endUndelivered(id);
  }

  /** The surface's posts; a surface that rejects all the same posted nothing. */
  private async postCards(question: Question, queued?: () => void): Promise<PostedCards> {
    try {
      return await this.options.surface.postQuestion(question, queued);
    } catch (failure) {
      return { cards: [], failure };
    }
  }
}

/** Logs why a question could not be delivered or ended, with its RelayError code when it has one. */
export function logFailure(logger: RelayLogger, questionId: string, error: unknown): void {
  const code = relayErrorCode(error);
  logger.error({ questionId, code, err: error }, 'question could not be delivered or ended');
}
