// Posting a question's cards and showing its end on them. A question whose cards could not all be posted (Slack
// refused one) ends at once ('delivery_failed') rather than time out unseen; a post refused while Redis is
// unavailable is queued again by the surface meanwhile. One that ended before its cards were attached (a click
// can beat attachCards by milliseconds) had a winner that saw no card, so its poster shows the end, and then
// tells the store, which keeps an accepted answer's content for that drawing (store/scripts.ts INBOX_ACK_LUA).
import { answerWithin, settleWithin } from '../settle.js';
import { relayErrorCode } from './errors.js';
import type { PostedCards, RelayClock, RelayLogger, RelayStore, Surface } from './ports.js';
import type { UrlQuestions } from './url-questions.js';
import { againWhileUnavailable } from './while-unavailable.js';
import type { Attached, CardRef, Question } from './types.js';

export interface CardDeliveryOptions {
  store: Pick<RelayStore, 'attachCards' | 'get' | 'endShownOnCards'>;
  surface: Surface;
  urls: Pick<UrlQuestions, 'waitsForCall'>;
  logger: RelayLogger;
  clock: RelayClock;
  /** Ends a question some of whose people will never see it (Relay.end with 'delivery_failed'). */
  endUndelivered: (id: string) => Promise<unknown>;
}

/**
 * Longest a stopping replica waits for its card posts in flight, in ms. A post waits for the outbox's answer,
 * which never comes while Redis is down (the stop then waited until the question's deadline, minutes); one not
 * settled by then is left to its outbox job, durable in Redis, and its question to a survivor.
 */
export const CARD_POSTS_WITHIN_MS = 10_000;

/**
 * Longest a detached (API) question's creation waits for its card post to be queued in the outbox, in ms; a
 * post queued by then (the usual case: a few ms) is durable before the API answers.
 */
export const DETACHED_QUEUED_WITHIN_MS = 5_000;

export class CardDelivery {
  /**
   * Card posts in flight by question id (settled awaits them): a stopping replica closes its outbox after them,
   * so a card already in Slack is never taken for undelivered ('delivery_failed') and its question ended behind
   * it. A second delivery of one question (the undelivered sweep's) replaces the first here; both are the
   * same outbox jobs.
   */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** The replica is stopping: a failed attach is not tried again (that could hold the stop until a deadline). */
  private stopping = false;

  constructor(private readonly options: CardDeliveryOptions) {}

  /** Posts the question's cards and attaches them to it; a failure ends the question. */
  deliver(question: Question, queued?: () => void): Promise<void> {
    const delivery = this.post(question, queued);
    const tracked: Promise<unknown> = delivery
      .catch(() => undefined)
      .finally(() => {
        if (this.inFlight.get(question.id) === tracked) this.inFlight.delete(question.id);
      });
    this.inFlight.set(question.id, tracked);
    return delivery;
  }

  /** Resolves once the question's card delivery under way here, if any, is over (posted and attached, or not). */
  async delivered(id: string): Promise<void> {
    await this.inFlight.get(id);
  }

  private async post(question: Question, queued?: () => void): Promise<void> {
    const {
      cards: [first, ...more],
      failure,
    } = await this.postCards(question, queued);
    if (first === undefined) return this.failDelivery(question.id, failure);
    const state = await this.attach(question, [first, ...more]);
    // Some of the people asked would never see it: it ends now (the cards that are out say so).
    if (failure !== undefined) return this.failDelivery(question.id, failure);
    // Pending, gone, or ended after an earlier try of the attach landed: its winner shows the end (once).
    if (state === 'pending' || state === 'missing' || state === 'ended_with_card') return;
    // It ended before the cards were attached, so its winner saw none: they are ours to update.
    await this.showEndAttachedLate(question.id);
  }

  /**
   * Draws the end of a question that ended before its cards were attached, from its record: an accepted
   * answer's content is kept there for this (its holder may have it already), and goes once the end is drawn,
   * or tried (no one draws it again). That drop is cleanup only: should it fail, the record's expiry takes it.
   */
  private async showEndAttachedLate(id: string): Promise<void> {
    const { store, urls, logger } = this.options;
    const finished = await store.get(id);
    if (!finished?.card) return;
    try {
      await this.showEnd(finished, (await urls.waitsForCall(finished)) ? 'ended_card_waits' : 'ended');
    } finally {
      await store.endShownOnCards(id).catch((error: unknown) => {
        logger.warn({ questionId: id, err: error }, 'could not drop an answer shown on its card; it expires');
      });
    }
  }

  /**
   * Attaches the posted cards, again while Redis is unavailable (until the question's deadline): the cards are
   * out and the question is stored, so a Redis blip here must not fail the asker's request while the person
   * can still answer (answer-outage: a kill right after the post failed the elicitation with -32603).
   */
  private attach(question: Question, cards: [CardRef, ...CardRef[]]): Promise<Attached> {
    return againWhileUnavailable(() => this.options.store.attachCards(question.id, cards), {
      clock: this.options.clock,
      until: question.deadline,
      stopped: () => this.stopping,
      onRetry: (error) =>
        this.options.logger.warn(
          { questionId: question.id, err: error },
          'attaching cards again, Redis unavailable',
        ),
    });
  }

  /**
   * Posts a detached question's cards in the background; resolves once the posts are queued (durable), the
   * delivery is over (failed and the question ended), or DETACHED_QUEUED_WITHIN_MS has passed: while only the
   * outbox's Redis connection is down the post waits for it (until the question's deadline), and the question
   * is stored already, so the API's 201 need not wait that out. Should this replica die before queuing the
   * post, the undelivered sweep (delivery-sweep.ts) delivers the question from another.
   */
  async deliverDetached(question: Question): Promise<void> {
    let queued = (): void => undefined;
    const isQueued = new Promise<void>((resolve) => (queued = resolve));
    const delivery = this.deliver(question, queued).catch((error: unknown) =>
      logFailure(this.options.logger, question.id, error),
    );
    await answerWithin(
      Promise.race([isQueued, delivery]),
      DETACHED_QUEUED_WITHIN_MS,
      undefined,
      this.options.clock,
    );
  }

  /**
   * Attaches no more cards again after a failure, and waits for the card posts in flight (a replica stops), for
   * at most CARD_POSTS_WITHIN_MS.
   */
  async settled(): Promise<void> {
    this.stopping = true;
    if (await settleWithin([...this.inFlight.values()], CARD_POSTS_WITHIN_MS)) return;
    this.options.logger.warn(
      { posts: this.inFlight.size, waitedMs: CARD_POSTS_WITHIN_MS },
      'gave up waiting for card posts in flight; their questions are left to a survivor',
    );
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
    // A post cut off by the stop (settled gave up, the outbox closed) may well be in Slack: not undelivered.
    if (this.stopping) return;
    await this.options.endUndelivered(id);
  }

  /**
   * The surface's posts, each queued again while Redis is unavailable until the question's deadline or the stop
   * (right after a Redis restart the store may be back, the question stored, while the outbox still reconnects);
   * a surface that rejects all the same posted nothing.
   */
  private async postCards(question: Question, queued?: () => void): Promise<PostedCards> {
    try {
      return await this.options.surface.postQuestion(question, {
        queued,
        stopped: () => this.stopping,
        onRetry: (error) =>
          this.options.logger.warn(
            { questionId: question.id, err: error },
            'posting cards again, Redis unavailable',
          ),
      });
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
