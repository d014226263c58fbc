// The relay core: turns one elicitation into one question, waits for exactly one outcome and hands it back.
// It knows nothing of Slack or Redis: the store and the chat surface are passed in.
//
// Flow: ask() → store.create (pending record + timeout job) → surface.postQuestion (the card)
//   → a person answers on any replica → end() → store.finish (the one atomic transition)
//   → the holder's inbox delivers the finished question here → ask() resolves with its outcome.
// end() is the one way a question ends, for every reason: answers, timeouts, withdrawals, the local
// backstop, a card that could not be posted and the orphan sweep all go through it, and its winner alone
// updates the card (surface.updateCard).
import type { DetachedAsk, EndOptions, FormAsk, UrlAsk } from './asks.js';
import { CardDelivery, logFailure } from './card-delivery.js';
import type { RelayOptions } from './options.js';
import type { RateLimit, RelayClock } from './ports.js';
import { QuestionStarts } from './question-starts.js';
import { endWaitsForCall, isRoundLink } from './round-links.js';
import type { EndReason, FinishResult, NewQuestion, Outcome, Question } from './types.js';
import { UrlQuestions } from './url-questions.js';
import { LOCAL_END_RETRY_MS } from './grace.js';
import { watchLocalEnds } from './local-ends.js';
import { againWhileUnavailable } from './while-unavailable.js';
import { Waiters, endLostQuestions } from './waiters.js';

// The ports, asks and options are Relay's API too: its callers import them from here.
export type { DetachedAsk, EndOptions, FormAsk, UrlAsk } from './asks.js';
export type { RelayOptions } from './options.js';
export { observeAll } from './ports.js';
export type {
  CardChange,
  CreateOptions,
  PostedCards,
  Posting,
  RateLimit,
  RelayClock,
  RelayObserver,
  RelayStore,
  Surface,
} from './ports.js';

export class Relay {
  private readonly waiters = new Waiters();
  private readonly urls: UrlQuestions;
  private readonly cards: CardDelivery;
  private readonly clock: RelayClock;
  private readonly starts: QuestionStarts;

  constructor(private readonly options: RelayOptions) {
    this.clock = options.clock;
    this.urls = new UrlQuestions(options.store, options.links, options.clock);
    this.starts = new QuestionStarts(options, this.urls);
    this.cards = new CardDelivery({
      store: options.store,
      surface: options.surface,
      logger: options.logger,
      clock: options.clock,
      urls: this.urls,
      endUndelivered: (id) => this.end(id, { action: 'cancel' }, 'delivery_failed'),
    });
  }

  /** Questions this replica asked that are still waiting for their outcome. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Asks a person to fill a form; resolves with exactly one outcome for the server. */
  async askForm(ask: FormAsk): Promise<Outcome> {
    this.options.checkSchema(ask.requestedSchema);
    const { signal, rateLimit, ...fields } = ask;
    return await this.askPerson(fields, signal, rateLimit);
  }

  /**
   * Asks without waiting (an API question, `client` set): stores the question, posts its card in the
   * background and returns it once the post is queued (durable), or has failed and ended the question: a
   * replica killed after answering the API's 201 leaves the post to another's outbox worker. No replica holds
   * the question; its outcome is read from the store.
   */
  async open(ask: DetachedAsk): Promise<Question> {
    this.options.checkSchema(ask.requestedSchema);
    const { rateLimit, ...fields } = ask;
    const endTurn = await this.starts.turn(fields.userId);
    try {
      const question = await this.starts.create(fields, rateLimit);
      this.options.observer?.created(question);
      await this.cards.deliverDetached(question);
      return question;
    } finally {
      endTurn();
    }
  }

  /**
   * Posts the card of a detached question whose creator never attached one (it died after storing it): the
   * outbox's `card-<id>` key makes this the same post if the first one is still queued or already done.
   */
  async redeliver(question: Question): Promise<void> {
    await this.cards.deliver(question);
  }

  /**
   * Asks a person to open a link (URL mode); accept means they consented and opened it. A 2026 request asked
   * again by the next round of its call takes over the previous round's card (see round-links.ts).
   */
  async askUrl(ask: UrlAsk): Promise<Outcome> {
    this.options.checkUrl(ask.url);
    const { signal, url, elicitationId, rateLimit, ...fields } = ask;
    const link = { server: fields.server, elicitationId };
    const replaces = isRoundLink(elicitationId) ? await this.urls.previousCards(link) : undefined;
    return await this.askPerson(
      { ...fields, requestedSchema: null, url: { url, elicitationId, ...(replaces ? { replaces } : {}) } },
      signal,
      rateLimit,
    );
  }

  /**
   * The call that asked these 2026 URL requests ended: no round asks for them again, so the card of each one's
   * last question shows how it ended (those updates waited for this, see round-links.ts).
   */
  async settleLinks(server: string, elicitationIds: string[]): Promise<void> {
    for (const elicitationId of elicitationIds) {
      const question = await this.urls.settle({ server, elicitationId });
      if (question?.card && endWaitsForCall(question)) await this.cards.showEnd(question, 'settled');
    }
  }

  /**
   * The server says the step behind a URL-mode question's link is done. The card says so; a question
   * still pending ends as accepted (the step it asked for was taken). Unknown ids, ids of another server
   * and questions that ended otherwise (declined, expired) are ignored, as the spec asks.
   */
  async completeUrl(server: string, elicitationId: string): Promise<void> {
    const id = this.urls.take(server, elicitationId);
    if (id === undefined) return;
    let question = await this.options.store.get(id);
    if (question?.state === 'pending') {
      question = (await this.end(id, { action: 'accept', content: {} }, 'answered')).question;
    }
    // Its card may not be attached yet (the click that accepted it can beat the attach): shown once it is.
    if (question?.state === 'accepted' && !question.card) {
      await this.cards.delivered(id);
      question = await this.options.store.get(id);
    }
    if (question?.state === 'accepted')
      await this.options.surface.updateCard(question, { kind: 'url_completed' });
  }

  private async askPerson(fields: NewQuestion, signal: AbortSignal, rateLimit?: RateLimit): Promise<Outcome> {
    if (signal.aborted) return { action: 'cancel' };
    const started = await this.starts.start(fields, signal, rateLimit);
    if (started === undefined) return { action: 'cancel' };
    const { question, endTurn } = started;
    this.options.observer?.created(question);
    const answered = this.waiters.wait(question.id, fields.round !== undefined);
    let outcome: Outcome | undefined;
    // Both paths also resolve locally, so the MCP request never hangs even if Redis lost the question.
    const stopWatching = watchLocalEnds(question, signal, {
      clock: this.clock,
      graceMs: this.options.backstopGraceMs,
      end: (reason) => {
        if (!this.waiters.leftToSurvivor(question.id)) void this.endAndRelease(question.id, reason);
      },
    });
    try {
      // The outcome does not wait for the card: a card still queued behind its channel's pace (1 post/s) when
      // its question ended would hold the server's answer until the outbox gives up, deadline + 5 s (#15.6).
      const delivered = this.cards.deliver(question, endTurn);
      delivered.then(endTurn, (error: unknown) => {
        endTurn();
        logFailure(this.options.logger, question.id, error);
      });
      outcome = await Promise.race([answered, delivered.then(() => answered)]);
      return outcome;
    } finally {
      stopWatching();
      this.waiters.forget(question.id);
      this.urls.ended(question, outcome);
    }
  }

  /** A reminder job came due: nudge the person if the question is still open and its card is out. */
  async remind(id: string, at?: number): Promise<void> {
    const question = await this.options.store.get(id);
    if (question?.state === 'pending' && question.card) await this.options.surface.remind(question, at);
  }

  /**
   * Redis lost its data: a question whose record is gone can be neither answered nor timed out (its timeout
   * job went too), so its waiting call is told cancel now instead of at its backstop, deadline + 5 s.
   */
  async endLost(): Promise<void> {
    await endLostQuestions(this.waiters, this.options.store, this.options.logger);
  }

  /** Called by the store's inbox when a question this replica holds has ended, on whichever replica it ended. */
  onFinished(question: Question): void {
    const outcome = question.outcome ?? { action: 'cancel' };
    if (!this.waiters.leftToSurvivor(question.id)) this.waiters.resolve(question.id, outcome);
  }

  /**
   * The only way a question ends, for every reason. The winner updates the card (after `beforeCard`);
   * everyone else learns the state it is already in. A `beforeCard` that fails (the listener could not answer
   * Slack) still leaves the won end counted, audited and on its card; its failure is then this call's.
   */
  async end(
    id: string,
    outcome: Outcome,
    reason: EndReason,
    options: EndOptions = {},
  ): Promise<FinishResult> {
    const result = await this.options.store.finish(id, outcome, reason, options.byUserId);
    const failed = await options.beforeCard?.(result).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    if (result.won) this.options.observer?.ended(result.question);
    // Without a card yet (a click can beat attachCard by milliseconds), the card's poster updates it (deliver).
    if (result.won && result.question.card) {
      await this.cards.showEnd(
        result.question,
        endWaitsForCall(result.question) ? 'ended_card_waits' : 'ended',
        options.handOffCard === true,
      );
    }
    if (failed) throw failed.error;
    return result;
  }

  /**
   * Ends every question this replica is waiting on (the MCP sessions are about to close, so nobody could
   * receive the answer) and waits until each has its outcome stored and its card updated, or its update queued
   * when Slack's pacing puts it in a later slot (any replica's outbox makes it then: CardChange `handOff`); a
   * durable round's questions stay pending for a survivor (Waiters.leftToSurvivor).
   */
  async endAllWaiting(reason: EndReason = 'call_ended'): Promise<void> {
    const ending = this.waiters.leave();
    await Promise.all(ending.map((id) => this.endAndRelease(id, reason, true)));
    // Detached questions and durable rounds' stay pending (any replica serves them); the card posts in flight
    // are awaited, so that none is cut off by the outbox closing and its question ended as undelivered.
    await this.cards.settled();
  }

  /**
   * `leaving`: a paced card update is left queued in the outbox (Redis), so a stop need not wait its slot out.
   * The end is tried again for up to LOCAL_END_RETRY_MS while Redis is away: its server is told cancel either
   * way, and an end not stored would leave the question open to a later answer the server never gets.
   */
  private async endAndRelease(id: string, reason: EndReason, leaving = false): Promise<void> {
    let outcome: Outcome = { action: 'cancel' };
    try {
      const options = leaving ? { handOffCard: true } : {};
      const until = this.clock.now() + LOCAL_END_RETRY_MS;
      const result = await againWhileUnavailable(() => this.end(id, outcome, reason, options), {
        clock: this.clock,
        until,
      });
      // Lost the race: the question ended elsewhere; relay what it ended with, not our cancel.
      if (!result.won && result.question?.outcome) outcome = result.question.outcome;
    } catch (error) {
      logFailure(this.options.logger, id, error);
    } finally {
      this.waiters.resolve(id, outcome);
    }
  }
}
