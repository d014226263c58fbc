// The relay core: turns one elicitation into one question, waits for exactly one outcome and hands it back.
// It knows nothing of Slack or Redis: the store and the chat surface are passed in.
//
// Flow: ask() → store.create (pending record + timeout job) → surface.postQuestion (the card)
//   → a person answers on any replica → end() → store.finish (the one atomic transition)
//   → the holder's inbox delivers the finished question here → ask() resolves with its outcome.
// end() is the one way a question ends, for every reason: answers, timeouts, withdrawals, the local
// backstop, a card that could not be posted and the orphan sweep all go through it, and its winner alone
// updates the card (surface.updateCard).
import type {
  Answerers,
  CardRef,
  Draft,
  EndReason,
  FinishResult,
  NewQuestion,
  Origin,
  Outcome,
  Place,
  Question,
  QuestionSource,
  QuestionState,
  RoundRef,
  ServerIdentity,
} from './types.js';
import type { Clock } from '../clock.js';
import { relayErrorCode } from './errors.js';
import { reminderTimes } from './reminders.js';
import { endWaitsForCall, isRoundLink, type RoundLink, type RoundLinkStore } from './round-links.js';
import { cardsOf } from './types.js';

/** What the relay needs from durable state (implemented by src/store). */
export interface RelayStore {
  /** Rejects with RelayError code 'rate_limited' beyond the server's limit. */
  create(question: NewQuestion, options?: { rateLimit?: RateLimit; remindAt?: number[] }): Promise<Question>;
  get(id: string): Promise<Question | undefined>;
  /** Records the posted cards; answers the question's state then ('missing' when it is gone). */
  attachCards(id: string, cards: [CardRef, ...CardRef[]]): Promise<QuestionState | 'missing'>;
  /** The one atomic transition; `endedBy` is the person whose act ended it, stored with the outcome. */
  finish(id: string, outcome: Outcome, reason: EndReason, endedBy?: string): Promise<FinishResult>;
  /** One person's draft of a pending question's form, when they have one. */
  draft(id: string, userId: string): Promise<Draft | undefined>;
  /** Keeps one person's draft while the question is pending; false when it has ended meanwhile. */
  saveDraft(id: string, userId: string, draft: Draft): Promise<boolean>;
}

/**
 * What changed on a question's card (`byUserId`: the person whose act ended it, when one did): 'ended' = it
 * ended, those who follow questions (the App Home) are told and the card shows it; 'ended_card_waits' = it
 * ended, but its card (a 2026 round link's, see round-links.ts) keeps its buttons until the call ends, so only
 * those who follow are told; 'settled' = that call ended, and the card shows the end (those who follow were
 * told already); 'url_completed' = its link's step is done.
 */
export type CardChange =
  { kind: 'ended' | 'ended_card_waits' | 'settled'; byUserId?: string } | { kind: 'url_completed' };

/**
 * What posting a question gave: every card that is out (one per place the question goes), and why the others
 * are not, when one could not be posted.
 */
export interface PostedCards {
  cards: CardRef[];
  failure?: unknown;
}

/** Where people see questions (implemented by src/slack). */
export interface Surface {
  /**
   * Posts the question's card in every place it goes; rejects only when it posted none. `queued` is called
   * once every post is durable (any replica would make them if this one died).
   */
  postQuestion(question: Question, queued?: () => void): Promise<PostedCards>;
  /** The one way a posted card changes (every card of the question); a question without one is left alone. */
  updateCard(question: Question, change: CardChange): Promise<void>;
  /** Nudges those who may answer a question that is still pending; `at` (epoch ms) names the reminder. */
  remind(question: Question, at?: number): Promise<void>;
}

/**
 * Hears each question this replica creates, and each one whose end this replica won (metrics, the audit): so
 * every question is heard created once and ended once across replicas. Its methods return at once, never throw.
 */
export interface RelayObserver {
  created(question: Question): void;
  /** The question as it ended: its outcome and reason set. */
  ended(question: Question): void;
}

/** One observer that tells each of `observers` in turn. */
export function observeAll(...observers: RelayObserver[]): RelayObserver {
  return {
    created: (question) => observers.forEach((o) => o.created(question)),
    ended: (question) => observers.forEach((o) => o.ended(question)),
  };
}

/** Time as the relay sees it: now and timers, passed in so that tests can run them by hand. */
export type RelayClock = Pick<Clock, 'now' | 'schedule'>;

export interface EndOptions {
  /** The person whose act ended it, named on the card. */
  byUserId?: string;
  /**
   * Runs after the transition and before the card update, e.g. a listener's ack, which Slack wants within
   * 3 s while the card update may wait for the outbox.
   */
  beforeCard?: (result: FinishResult) => Promise<void>;
}

/** At most `max` new questions per `perMs` milliseconds from one server, across replicas. */
export interface RateLimit {
  max: number;
  perMs: number;
}

export interface FormAsk {
  server: string;
  /** The person asked. */
  userId: string;
  /** Who started the tool call that asks, and where. */
  origin: Origin;
  message: string;
  requestedSchema: unknown;
  timeoutMs: number;
  /**
   * Aborts when the server withdraws the request or the call ends; the question then ends with the
   * signal's `reason` when that is 'call_ended', else as 'withdrawn'.
   */
  signal: AbortSignal;
  rateLimit?: RateLimit;
  /** The server's own name and version, shown with the question. */
  serverInfo?: ServerIdentity;
  /** Who may answer besides `userId` alone (resolved by the surface's policy); only `userId` when absent. */
  answerers?: Answerers; /** Where the question came from; 'mcp' when absent. */
  source?: QuestionSource;
  /** The durable round request it answers (see Question.round). */
  round?: RoundRef;
}

/** A question nobody waits on (see Relay.open): `client` names the API client that asked. */
export interface DetachedAsk extends Omit<FormAsk, 'signal'> {
  client: string;
  /** Where the card goes (the client's `to`). */
  place: Place;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

export interface UrlAsk extends Omit<FormAsk, 'requestedSchema'> {
  url: string;
  elicitationId: string;
}

export interface RelayOptions {
  store: RelayStore;
  /** The latest question of each 2026 URL request, shared by the replicas (see round-links.ts). */
  links: RoundLinkStore;
  surface: Surface;
  /** Checks that the form can be rendered; throws RelayError('invalid_schema') when it cannot. */
  checkSchema: (requestedSchema: unknown) => unknown;
  /** Checks that a URL-mode link may be shown; throws RelayError('invalid_url') when it may not. */
  checkUrl: (url: string) => void;
  /** When to nudge (epoch ms), from the time they have and now (both ms) and the server; default reminderTimes without a policy (one at half time). */
  reminderTimes?: (timeoutMs: number, now: number, server: string) => number[];
  /** Extra wait past the deadline before the local backstop ends a question whose timeout job never fired, in ms. Default 5000. */
  backstopGraceMs?: number;
  /** In production systemClock (src/clock.ts). */
  clock: RelayClock;
  logger: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  observer?: RelayObserver;
}

type Waiter = (outcome: Outcome) => void;

/** 2025 URL-mode questions remembered for notifications/elicitation/complete; the oldest go first beyond this. */
const URL_QUESTIONS_MAX = 10_000;

export class Relay {
  private readonly waiters = new Map<string, Waiter>();
  /** The waiting questions that answer a durable 2026 round's requests (Question.round). */
  private readonly roundWaiters = new Set<string>();
  /** Set by endAllWaiting: this replica is stopping and leaves its round questions to a survivor. */
  private leaving = false;
  /** Card posts of detached questions in flight (endAllWaiting awaits them). */
  private readonly deliveries = new Set<Promise<void>>();
  /** Question ids of the 2025 URL-mode questions asked here, by server and elicitationId. */
  private readonly urlQuestions = new Map<string, string>();

  private readonly clock: RelayClock;

  constructor(private readonly options: RelayOptions) {
    this.clock = options.clock;
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
    const now = this.clock.now();
    const question = await this.options.store.create(fields, {
      ...(rateLimit ? { rateLimit } : {}),
      remindAt: (this.options.reminderTimes ?? defaultReminders)(fields.timeoutMs, now, fields.server),
    });
    this.options.observer?.created(question);
    let queued = (): void => undefined;
    const isQueued = new Promise<void>((resolve) => (queued = resolve));
    const delivery = this.deliver(question, queued)
      .catch((error: unknown) => this.logFailure(question.id, error))
      .finally(() => this.deliveries.delete(delivery));
    this.deliveries.add(delivery);
    await Promise.race([isQueued, delivery]);
    return question;
  }

  /**
   * Posts the card of a detached question whose creator never attached one (it died after storing it): the
   * outbox's `card-<id>` key makes this the same post if the first one is still queued or already done.
   */
  async redeliver(question: Question): Promise<void> {
    await this.deliver(question);
  }

  /**
   * Asks a person to open a link (URL mode); accept means they consented and opened it. A 2026 request asked
   * again by the next round of its call takes over the previous round's card (see round-links.ts).
   */
  async askUrl(ask: UrlAsk): Promise<Outcome> {
    this.options.checkUrl(ask.url);
    const { signal, url, elicitationId, rateLimit, ...fields } = ask;
    const link = { server: fields.server, elicitationId };
    const replaces = isRoundLink(elicitationId) ? await this.previousCards(link) : undefined;
    return await this.askPerson(
      { ...fields, requestedSchema: null, url: { url, elicitationId, ...(replaces ? { replaces } : {}) } },
      signal,
      rateLimit,
    );
  }

  /** The cards of the previous round's question for the same 2026 URL request, on whichever replica it was asked. */
  private async previousCards(link: RoundLink): Promise<CardRef[] | undefined> {
    const id = await this.options.links.latest(link);
    const previous = id === undefined ? undefined : await this.options.store.get(id);
    const cards = previous === undefined ? [] : cardsOf(previous);
    return cards.length > 0 ? cards : undefined;
  }

  /**
   * The call that asked these 2026 URL requests ended: no round asks for them again, so the card of each one's
   * last question shows how it ended (those updates waited for this, see round-links.ts).
   */
  async settleLinks(server: string, elicitationIds: string[]): Promise<void> {
    for (const elicitationId of elicitationIds) {
      const id = await this.options.links.settle({ server, elicitationId });
      const question = id === undefined ? undefined : await this.options.store.get(id);
      if (question?.card && endWaitsForCall(question)) await this.showEnd(question, 'settled');
    }
  }

  /**
   * The server says the step behind a URL-mode question's link is done. The card says so; a question
   * still pending ends as accepted (the step it asked for was taken). Unknown ids, ids of another server
   * and questions that ended otherwise (declined, expired) are ignored, as the spec asks.
   */
  async completeUrl(server: string, elicitationId: string): Promise<void> {
    const key = urlKey(server, elicitationId);
    const id = this.urlQuestions.get(key);
    if (id === undefined) return;
    this.urlQuestions.delete(key);
    let question = await this.options.store.get(id);
    if (question?.state === 'pending') {
      question = (await this.end(id, { action: 'accept', content: {} }, 'answered')).question;
    }
    if (question?.state === 'accepted')
      await this.options.surface.updateCard(question, { kind: 'url_completed' });
  }

  /** Notes a URL question: a 2026 round link's for every replica, a 2025 one's here (for completeUrl). */
  private async rememberUrl(question: Question): Promise<void> {
    if (!question.url) return;
    const { elicitationId } = question.url;
    if (isRoundLink(elicitationId)) {
      await this.options.links.note(
        { server: question.server, elicitationId },
        question.id,
        question.timeoutMs,
      );
      return;
    }
    const oldest = this.urlQuestions.keys().next();
    if (this.urlQuestions.size >= URL_QUESTIONS_MAX && !oldest.done) this.urlQuestions.delete(oldest.value);
    this.urlQuestions.set(urlKey(question.server, question.url.elicitationId), question.id);
  }

  private async askPerson(fields: NewQuestion, signal: AbortSignal, rateLimit?: RateLimit): Promise<Outcome> {
    if (signal.aborted) return { action: 'cancel' };
    const question = await this.options.store.create(fields, {
      ...(rateLimit ? { rateLimit } : {}),
      remindAt: (this.options.reminderTimes ?? defaultReminders)(
        fields.timeoutMs,
        this.clock.now(),
        fields.server,
      ),
    });
    await this.rememberUrl(question);
    this.options.observer?.created(question);
    const answered = new Promise<Outcome>((resolve) => this.waiters.set(question.id, resolve));
    if (fields.round !== undefined) this.roundWaiters.add(question.id);
    // Both paths also resolve locally, so the MCP request never hangs even if Redis lost the question.
    const endLocally = (reason: EndReason) => (): void => {
      if (!this.leftToSurvivor(question.id)) void this.endAndRelease(question.id, reason);
    };
    const cancelBackstop = this.clock.schedule(
      endLocally('timed_out'),
      Math.max(0, question.deadline - question.createdAt) + (this.options.backstopGraceMs ?? 5000),
    );
    const onAbort = (): void => endLocally(abortReason(signal))();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      // The outcome does not wait for the card: a card still queued behind its channel's pace (1 post/s) when
      // its question ended would hold the server's answer until the outbox gives up, deadline + 5 s (#15.6).
      const delivered = this.deliver(question);
      delivered.catch((error: unknown) => this.logFailure(question.id, error));
      return await Promise.race([answered, delivered.then(() => answered)]);
    } finally {
      cancelBackstop();
      signal.removeEventListener('abort', onAbort);
      this.waiters.delete(question.id);
      this.roundWaiters.delete(question.id);
    }
  }

  /**
   * A durable round's question while this replica stops: it stays pending and its call here waits on, never
   * answered, so nothing of the round moves here (no cancel recorded, no retry, the round not dropped); any
   * replica records its answer and, this replica's lease gone, resumes the call (src/rounds).
   */
  private leftToSurvivor(id: string): boolean {
    return this.leaving && this.roundWaiters.has(id);
  }

  /** A reminder job came due: nudge the person if the question is still open and its card is out. */
  async remind(id: string, at?: number): Promise<void> {
    const question = await this.options.store.get(id);
    if (question?.state === 'pending' && question.card) await this.options.surface.remind(question, at);
  }

  /** Called by the store's inbox when a question this replica holds has ended, on whichever replica it ended. */
  onFinished(question: Question): void {
    const outcome = question.outcome ?? { action: 'cancel' };
    if (!this.leftToSurvivor(question.id)) this.waiters.get(question.id)?.(outcome);
  }

  /**
   * The only way a question ends, for every reason. The winner updates the card (after `beforeCard`);
   * everyone else learns the state it is already in.
   */
  async end(
    id: string,
    outcome: Outcome,
    reason: EndReason,
    options: EndOptions = {},
  ): Promise<FinishResult> {
    const result = await this.options.store.finish(id, outcome, reason, options.byUserId);
    await options.beforeCard?.(result);
    if (result.won) this.options.observer?.ended(result.question);
    // Without a card yet (a click can beat attachCard by milliseconds), the card's poster updates it (deliver).
    if (result.won && result.question.card) {
      await this.showEnd(result.question, endWaitsForCall(result.question) ? 'ended_card_waits' : 'ended');
    }
    return result;
  }

  /**
   * Ends every question this replica is waiting on (the MCP sessions are about to close, so nobody could
   * receive the answer) and waits until each has its outcome stored and its card updated; a durable round's
   * questions stay pending for a survivor (leftToSurvivor).
   */
  async endAllWaiting(reason: EndReason = 'call_ended'): Promise<void> {
    this.leaving = true;
    const ending = [...this.waiters.keys()].filter((id) => !this.leftToSurvivor(id));
    await Promise.all(ending.map((id) => this.endAndRelease(id, reason)));
    // Detached questions stay pending (any replica serves them); only their card posts in flight are awaited.
    await Promise.all([...this.deliveries]);
  }

  private async deliver(question: Question, queued?: () => void): Promise<void> {
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
    if (finished?.card)
      await this.showEnd(finished, (await this.waitsForCall(finished)) ? 'ended_card_waits' : 'ended');
  }

  /** Someone asked will never see this question: it ends now rather than time out silently. */
  private async failDelivery(id: string, failure: unknown): Promise<void> {
    this.logFailure(id, failure);
    await this.end(id, { action: 'cancel' }, 'delivery_failed');
  }

  /** The surface's posts; a surface that rejects all the same posted nothing. */
  private async postCards(question: Question, queued?: () => void): Promise<PostedCards> {
    try {
      return await this.options.surface.postQuestion(question, queued);
    } catch (failure) {
      return { cards: [], failure };
    }
  }

  /** A round link's card whose call has not ended yet (settleLinks has not run for it). */
  private async waitsForCall(question: Question): Promise<boolean> {
    const link = question.url;
    if (link === undefined || !endWaitsForCall(question)) return false;
    const latest = await this.options.links.latest({
      server: question.server,
      elicitationId: link.elicitationId,
    });
    return latest === question.id;
  }

  private async showEnd(question: Question, kind: 'ended' | 'ended_card_waits' | 'settled'): Promise<void> {
    const byUserId = question.endedBy;
    await this.options.surface.updateCard(question, { kind, ...(byUserId ? { byUserId } : {}) });
  }

  private async endAndRelease(id: string, reason: EndReason): Promise<void> {
    let outcome: Outcome = { action: 'cancel' };
    try {
      const result = await this.end(id, outcome, reason);
      // Lost the race: the question ended elsewhere; relay what it ended with, not our cancel.
      if (!result.won && result.question?.outcome) outcome = result.question.outcome;
    } catch (error) {
      this.logFailure(id, error);
    } finally {
      this.waiters.get(id)?.(outcome);
    }
  }

  private logFailure(questionId: string, error: unknown): void {
    const code = relayErrorCode(error);
    this.options.logger.error({ questionId, code, err: error }, 'question could not be delivered or ended');
  }
}

/** No server policy: the default nudge (see reminderTimes). */
const defaultReminders = (timeoutMs: number, now: number): number[] =>
  reminderTimes(undefined, timeoutMs, now);

const urlKey = (server: string, elicitationId: string): string => `${server}\u0000${elicitationId}`;

function abortReason(signal: AbortSignal): EndReason {
  return signal.reason === 'call_ended' ? 'call_ended' : 'withdrawn';
}
