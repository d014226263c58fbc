// The Slack surface of the relay: posts the request card where the server's policy says (the person's DM, the
// command's thread, or an approvals channel) and updates it when the question ends. Cards go through the
// outbox (retries, Retry-After, pacing) as the jobs card-jobs.ts makes; what a card says is built in
// card-content.ts, each card in its reader's language (card-readers.ts). Slack API errors propagate, never
// swallowed: the relay ends a question whose card cannot be posted.
import { reminderMessage, type Locale, type SlackMessage } from '../../blocks/index.js';
import { systemClock, type Clock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import { againWhileUnavailable } from '../relay/while-unavailable.js';
import type { CardChange, PostedCards, Posting, Surface } from '../relay/relay.js';
import { cardsOf, type CardRef, type Question } from '../relay/types.js';
import { conversationGone, type Outbox, type OutboxJob, type OutboxResult } from './outbox/index.js';
import { ANSWERER_DMS_MAX, answererDms, placeOfQuestion, type Audience } from './audience.js';
import { cardKey, cardPost, cardUpdate, reminderPost } from './card-jobs.js';
import { CardContent } from './card-content.js';
import { DirectMessages } from './direct-messages.js';
import {
  cardWatches,
  missedAnswerersForgiven,
  onlyWatches,
  placesOf,
  readerOfCard,
  readerOfPlace,
} from './card-readers.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';

/** How long a card update is queued again while Redis is unavailable, in ms (a minute: an outage, not a blip). */
const UPDATE_AGAIN_WITHIN_MS = 60_000;

/** Where the surface says what it left undone (answerers past the DM bound). */
export interface SurfaceLogger {
  warn(fields: object, message: string): void;
}

const quiet: SurfaceLogger = { warn: () => undefined };

/** Told when a question's card is out and when a question ends (the App Home inbox follows both). */
export interface QuestionObserver {
  started(question: Question): void;
  /** `byUserId`: the person whose click or submit ended it, when one did. */
  ended(question: Question, byUserId?: string): void;
}

export class SlackSurface implements Surface {
  /** Where a card to people goes (their DM, or their multi-person DM). */
  private readonly dms: DirectMessages;
  private readonly observers: QuestionObserver[] = [];
  /** What the cards say (this class decides where they go and sends them). */
  private readonly content: CardContent;

  constructor(
    clients: SlackClients,
    readonly locales: Locales,
    private readonly outbox: Outbox,
    /** Where each server's questions go and who may answer them. */
    readonly audience: Audience,
    /** When a card says a question ended, and the waits before queueing a card again. Default the system clock. */
    private readonly clock: Pick<Clock, 'now' | 'schedule'> = systemClock,
    /** Told of the answerers past ANSWERER_DMS_MAX, who get no card. Default silent. */
    private readonly logger: SurfaceLogger = quiet,
  ) {
    this.content = new CardContent(audience, clock);
    this.dms = new DirectMessages(clients, clock);
  }

  /**
   * One card in each place the question goes (several multi-person DMs for many people), all at once.
   * `posting.queued` runs once every post is in the outbox (Redis): from then on any replica's worker makes
   * them.
   */
  async postQuestion(question: Question, posting: Posting = {}): Promise<PostedCards> {
    const replaces = question.url?.replaces;
    if (replaces !== undefined) return this.replaceCards(question, replaces, posting);
    const place = placeOfQuestion(this.audience.policyOf(question.server), question);
    const thread = 'threadTs' in place && place.threadTs ? { thread_ts: place.threadTs } : {};
    const places = placesOf(place);
    this.logNotSent(question);
    const queued = countdown(places.length, posting.queued);
    const posts = await Promise.allSettled(
      places.map(async (one, index) => {
        const [channel, locale] = await Promise.all([
          this.dms.channelOf(one, question.origin.teamId),
          this.locales.of(readerOfPlace(one, question), question.origin.teamId),
        ]);
        const card = this.content.request(question, locale, onlyWatches(one, question));
        const key = cardKey('card', question.id, index);
        return this.postCard(question, card, { channel, key, thread }, { ...posting, queued });
      }),
    );
    const { kept, missed } = missedAnswerersForgiven(question, places, posts);
    if (missed.length > 0) {
      const fields = { questionId: question.id, server: question.server, missed };
      this.logger.warn(
        fields,
        "a card could not be posted in these answerers' DMs: they answer from App Home",
      );
    }
    return this.cardsOut(question, kept);
  }

  /** Names the answerers the DM bound left without a card (they answer from App Home). */
  private logNotSent(question: Question): void {
    const { notSent } = answererDms(this.audience.policyOf(question.server), question);
    if (notSent.length === 0) return;
    this.logger.warn(
      { questionId: question.id, server: question.server, bound: ANSWERER_DMS_MAX, notSent },
      'more answerers than the DM bound: these get no card in their DM (App Home lists the question for them)',
    );
  }

  /**
   * The next round's card of a 2026 URL request, in the previous round's messages (chat.update of each), so
   * the person keeps one card for it across the rounds of the call.
   */
  private async replaceCards(
    question: Question,
    replaces: CardRef[],
    posting: Posting,
  ): Promise<PostedCards> {
    const queued = countdown(replaces.length, posting.queued);
    const updates = await Promise.allSettled(
      replaces.map(async (posted, index): Promise<CardRef> => {
        const card = this.content.request(question, await this.cardLocale(question, index, replaces));
        const key = cardKey('card', question.id, index);
        // Still a card that asks: worth making only until the question's deadline, as its post is.
        const update: OutboxJob = { ...cardUpdate(question, posted, card, key), deadline: question.deadline };
        const updated = await this.sendCard(question, update, { ...posting, queued });
        if (!updated.ok) throw new RelayError('slack_update_failed', `chat.update failed: ${updated.error}`);
        return posted;
      }),
    );
    return this.cardsOut(question, updates);
  }

  /** The cards that are out (observers told), and why the others are not; rejects when none is. */
  private cardsOut(question: Question, posts: PromiseSettledResult<CardRef>[]): PostedCards {
    const cards = posts.flatMap((post) => (post.status === 'fulfilled' ? [post.value] : []));
    const failed = posts.find((post) => post.status === 'rejected');
    if (cards.length === 0 && failed) throw failed.reason;
    if (cards.length > 0) for (const observer of this.observers) observer.started(question);
    return { cards, ...(failed ? { failure: failed.reason } : {}) };
  }

  private async postCard(
    question: Question,
    card: SlackMessage,
    to: { channel: string; key: string; thread: { thread_ts?: string } },
    posting: Posting,
  ): Promise<CardRef> {
    const posted = await this.sendCard(question, cardPost(question, card, to), posting);
    if (!posted.ok) {
      const fix = conversationGone(posted.error)
        ? ' (archived, or the bot is not in it: invite the app)'
        : '';
      const why = `chat.postMessage to ${to.channel} failed: ${posted.error}${fix}`;
      throw new RelayError('slack_post_failed', why);
    }
    if (!posted.ts) throw new RelayError('slack_bad_response', 'chat.postMessage returned no ts');
    return { channel: posted.channel ?? to.channel, ts: posted.ts };
  }

  /**
   * Queues one of a question's cards (a post, or a round's card taken over) and waits for Slack's answer, again
   * while Redis is unavailable until the question's deadline or `posting.stopped`. The card's key makes every try
   * the same outbox job: a try whose job reached Redis before its answer was lost is not queued twice, and the
   * one call's result is read back (Outbox.send).
   */
  private sendCard(question: Question, job: OutboxJob, posting: Posting): Promise<OutboxResult> {
    return againWhileUnavailable(() => this.outbox.send(job, posting.queued), {
      clock: this.clock,
      until: question.deadline,
      stopped: posting.stopped,
      onRetry: posting.onRetry,
    });
  }

  observe(observer: QuestionObserver): void {
    this.observers.push(observer);
  }

  /**
   * The one way a posted card changes (each of the question's cards): it ended (observers told, then the card
   * shows it, unless it waits for its call), its call ended (the card shows it), or its link's step is done.
   */
  async updateCard(question: Question, change: CardChange): Promise<void> {
    if (!question.card || question.state === 'pending') return;
    if (change.kind === 'ended' || change.kind === 'ended_card_waits') {
      for (const observer of this.observers) observer.ended(question, change.byUserId);
    }
    if (change.kind === 'ended_card_waits') return;
    const kind = change.kind === 'url_completed' ? 'completed' : 'ended';
    const handOff = 'handOff' in change && change.handOff === true;
    await allOrFirstFailure(
      cardsOf(question).map(async (posted, index) => {
        const locale = await this.cardLocale(question, index);
        const card =
          change.kind === 'url_completed'
            ? this.content.completed(question, locale)
            : this.content.ended(question, locale, change.byUserId);
        if (!card) return;
        const update = cardUpdate(question, posted, card, cardKey(kind, question.id, index));
        // Handed off, an update paced to a later slot is left queued (undefined): another replica makes it.
        const updated = await (handOff ? this.outbox.sendOrLeave(update) : this.sendWhenRedisBack(update));
        if (updated?.ok === false && conversationGone(updated.error)) {
          return this.cardGone(question, posted, 'end', updated.error);
        }
        if (updated?.ok === false) {
          throw new RelayError('slack_update_failed', `chat.update failed: ${updated.error}`);
        }
      }),
    );
  }

  /**
   * Queues a card update, again while Redis is unavailable (waiting 100 ms doubling to 2 s, for up to
   * UPDATE_AGAIN_WITHIN_MS): the end is stored and relayed by now, and the outbox's connection may come back
   * after the store's did (answer-outage: a Send that won right after Redis restarted found the outbox still
   * reconnecting, and the card kept showing the question open). The key makes each try the same job. A stop's
   * updates are handed off instead (sendOrLeave) and never wait here.
   */
  private sendWhenRedisBack(update: OutboxJob): Promise<OutboxResult> {
    const until = this.clock.now() + UPDATE_AGAIN_WITHIN_MS;
    return againWhileUnavailable(() => this.outbox.send(update), { clock: this.clock, until });
  }

  /**
   * A card's conversation takes no more posts or updates (archived, deleted, the bot removed from it): said in
   * one line, not thrown, as no retry gets past it. The question goes on where else it is seen (App Home, its
   * other cards) until its answer or its deadline: its end is stored and relayed either way.
   */
  private cardGone(question: Question, card: CardRef, what: 'reminder' | 'end', error: string): void {
    this.logger.warn(
      { questionId: question.id, channel: card.channel, what, error },
      "a card's conversation is archived or the bot is not in it: its reminders and end are not shown there",
    );
  }

  /** `at` (epoch ms) tells one reminder of a question from another. */
  async remind(question: Question, at?: number): Promise<void> {
    const remindKey = at ?? question.deadline;
    if (!question.card) return;
    const { server, deadline, answerers } = question;
    const mentions = {
      userId: answerers?.users ?? question.userId,
      groups: answerers?.groups?.map((g) => g.id),
    };
    // In each card's thread: the thread the card itself went to, else the card's own.
    const place = placeOfQuestion(this.audience.policyOf(question.server), question);
    const threadOf = (card: CardRef): string =>
      'threadTs' in place && place.threadTs ? place.threadTs : card.ts;
    await allOrFirstFailure(
      cardsOf(question).map(async (card, index) => {
        // Someone who may not answer is not nudged: their card names whom it waits for.
        if (cardWatches(this.audience.policyOf(server), question, index)) return;
        // In its card's language: the DM's person, or the question's person in a shared conversation.
        const locale = await this.cardLocale(question, index);
        const message = reminderMessage({ server, ...mentions, deadline, locale });
        const to = { card, index, at: remindKey, threadTs: threadOf(card) };
        const sent = await this.outbox.send(reminderPost(question, to, message));
        if (!sent.ok && conversationGone(sent.error))
          return this.cardGone(question, card, 'reminder', sent.error);
        if (!sent.ok) throw new RelayError('slack_post_failed', `reminder failed: ${sent.error}`);
      }),
    );
  }

  /**
   * The language of the question's `index`-th card (of `cards`, default its cards out): its reader's, cached
   * (users.info once per person an hour per replica; none for an API client, which has no Slack locale).
   */
  private cardLocale(question: Question, index: number, cards = cardsOf(question)): Promise<Locale> {
    const policy = this.audience.policyOf(question.server);
    return this.locales.of(readerOfCard(policy, question, index, cards.length), question.origin.teamId);
  }

  /** The person's DM channel with the bot (conversations.open once, then cached). */
  dmOf(userId: string, teamId: string | undefined): Promise<string> {
    return this.dms.of(userId, teamId);
  }
}

/** Calls `done` once it was itself called `count` times. */
function countdown(count: number, done?: () => void): () => void {
  let left = count;
  return () => {
    left -= 1;
    if (left === 0) done?.();
  };
}

/** Waits for every one of `work`; rejects with the first failure once all are done. */
async function allOrFirstFailure(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((done) => done.status === 'rejected');
  if (failed) throw failed.reason;
}
