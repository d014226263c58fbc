// The Slack surface of the relay: posts the request card where the server's policy says (the person's DM, the
// command's thread, or an approvals channel) and updates it when the question ends. Cards go through the
// outbox (retries, Retry-After, pacing). Slack API errors propagate, never swallowed: the relay ends a question
// whose card cannot be posted.
import {
  answerLines,
  endedCard,
  parseFormSchema,
  reminderMessage,
  requestCard,
  urlCard,
  urlCompletedCard,
  type CardAbout,
  type Locale,
  type SlackMessage,
} from '../../blocks/index.js';
import { systemClock, type Clock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { CardChange, Surface } from '../relay/relay.js';
import type { Place, Question } from '../relay/types.js';
import type { Outbox, OutboxJob } from './outbox/index.js';
import { placeOfQuestion, type Audience } from './audience.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';

/** The outbox job field that picks the question's workspace client. */
const workspaceOf = (question: Question): { teamId?: string } =>
  question.origin.teamId ? { teamId: question.origin.teamId } : {};

/** Told when a question's card is out and when a question ends (the App Home inbox follows both). */
export interface QuestionObserver {
  started(question: Question): void;
  /** `byUserId`: the person whose click or submit ended it, when one did. */
  ended(question: Question, byUserId?: string): void;
}

export class SlackSurface implements Surface {
  /** DM channel ids by workspace and user id; chat.update needs the D… id, not the user id. */
  private readonly dms = new Map<string, string>();
  private readonly observers: QuestionObserver[] = [];

  constructor(
    private readonly clients: SlackClients,
    readonly locales: Locales,
    private readonly outbox: Outbox,
    /** Where each server's questions go and who may answer them. */
    readonly audience: Audience,
    /** When a card says a question ended. Default the system clock. */
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /** `queued` runs once the post is in the outbox (Redis): from then on any replica's worker makes it. */
  async postQuestion(question: Question, queued?: () => void): Promise<{ channel: string; ts: string }> {
    const place = placeOfQuestion(this.audience.policyOf(question.server), question);
    const channel = await this.channelOf(place, question);
    const input = {
      locale: await this.locales.of(question.userId, question.origin.teamId),
      questionId: question.id,
      server: question.server,
      message: question.message,
      deadline: question.deadline,
      ...aboutOf(question),
    };
    const card = question.url
      ? urlCard({ ...input, url: question.url.url })
      : requestCard({ ...input, secretFields: secretLabels(question) });
    const post: OutboxJob = {
      method: 'chat.postMessage',
      channel,
      deadline: question.deadline,
      key: `card-${question.id}`,
      ...workspaceOf(question),
      // A server-chosen link must never be previewed (fetched) on its behalf.
      args: {
        text: card.text,
        blocks: card.blocks,
        unfurl_links: false,
        unfurl_media: false,
        ...('threadTs' in place && place.threadTs ? { thread_ts: place.threadTs } : {}),
      },
    };
    const posted = await this.outbox.send(post, queued);
    if (!posted.ok) throw new RelayError('slack_post_failed', `chat.postMessage failed: ${posted.error}`);
    if (!posted.ts) throw new RelayError('slack_bad_response', 'chat.postMessage returned no ts');
    for (const observer of this.observers) observer.started(question);
    return { channel: posted.channel ?? channel, ts: posted.ts };
  }

  observe(observer: QuestionObserver): void {
    this.observers.push(observer);
  }

  /** The one way a posted card changes: it ended, or its link's step is done. */
  async updateCard(question: Question, change: CardChange): Promise<void> {
    if (!question.card) return;
    const card =
      change.kind === 'ended'
        ? await this.endedCardOf(question, change.byUserId)
        : await this.completedCardOf(question);
    if (!card) return;
    const updated = await this.outbox.send({
      method: 'chat.update',
      channel: question.card.channel,
      key: `${change.kind === 'ended' ? 'ended' : 'completed'}-${question.id}`,
      ...workspaceOf(question),
      args: { ts: question.card.ts, text: card.text, blocks: card.blocks },
    });
    if (!updated.ok) throw new RelayError('slack_update_failed', `chat.update failed: ${updated.error}`);
  }

  /** The ended card (observers told first), or undefined while the question is pending. */
  private async endedCardOf(question: Question, byUserId?: string): Promise<SlackMessage | undefined> {
    if (question.state === 'pending') return undefined;
    for (const observer of this.observers) observer.ended(question, byUserId);
    const locale = await this.locales.of(question.userId, question.origin.teamId);
    const answer = this.answerOf(question, locale);
    return endedCard({
      locale,
      server: question.server,
      message: question.message,
      state: question.state,
      reason: question.reason ?? 'timed_out',
      mode: question.url ? 'url' : 'form',
      at: this.clock.now(),
      ...aboutOf(question),
      ...(answer ? { answer } : {}),
      ...(byUserId ? { byUserId } : {}),
    });
  }

  private async completedCardOf(question: Question): Promise<SlackMessage> {
    return urlCompletedCard({
      locale: await this.locales.of(question.userId, question.origin.teamId),
      server: question.server,
      message: question.message,
    });
  }

  /** `at` (epoch ms) tells one reminder of a question from another. */
  async remind(question: Question, at?: number): Promise<void> {
    const remindKey = at ?? question.deadline;
    if (!question.card) return;
    const answerers = question.answerers;
    const message = reminderMessage({
      server: question.server,
      userId: answerers?.users ?? question.userId,
      groups: answerers?.groups?.map((g) => g.id) ?? [],
      deadline: question.deadline,
      locale: await this.locales.of(question.userId, question.origin.teamId),
    });
    // In the card's thread: the thread the card itself went to, else the card's own.
    const place = placeOfQuestion(this.audience.policyOf(question.server), question);
    const thread = 'threadTs' in place && place.threadTs ? place.threadTs : question.card.ts;
    const sent = await this.outbox.send({
      method: 'chat.postMessage',
      channel: question.card.channel,
      deadline: question.deadline,
      key: `remind-${question.id}-${remindKey}`,
      ...workspaceOf(question),
      args: { text: message.text, blocks: message.blocks, thread_ts: thread },
    });
    if (!sent.ok) throw new RelayError('slack_post_failed', `reminder failed: ${sent.error}`);
  }

  /** The answer's lines for an answered form, 'hidden' when the server's policy hides content. */
  private answerOf(question: Question, locale: Locale): string[] | 'hidden' | undefined {
    if (question.outcome?.action !== 'accept' || question.url) return undefined;
    if (!this.audience.policyOf(question.server).showAnswers) return 'hidden';
    return answerLines(parseFormSchema(question.requestedSchema), question.outcome.content, locale);
  }

  /** The person's DM channel with the bot (conversations.open once, then cached). */
  dmOf(userId: string, teamId: string | undefined): Promise<string> {
    return this.directMessage(userId, teamId);
  }

  /** The card's channel: the asked person's DM, the multi-person DM of several people, or the conversation. */
  private async channelOf(place: Place, question: Question): Promise<string> {
    if ('channel' in place) return place.channel;
    const users = 'mpim' in place ? place.mpim.join(',') : question.userId;
    return this.directMessage(users, question.origin.teamId);
  }

  /**
   * The DM with one person, or the multi-person DM with several (`users` comma-separated, as
   * conversations.open takes them): opened once, then cached.
   */
  private async directMessage(users: string, teamId: string | undefined): Promise<string> {
    const key = `${teamId ?? ''}:${users}`;
    const known = this.dms.get(key);
    if (known) return known;
    const client = await this.clients.for(teamId);
    const opened = await client.conversations.open({ users });
    const id = opened.channel?.id;
    if (!id) throw new RelayError('slack_bad_response', 'conversations.open returned no channel');
    this.dms.set(key, id);
    return id;
  }
}

/** The server's identity and the requester, for the card's context line. */
function aboutOf(question: Question): CardAbout {
  return {
    requester: question.origin.userId,
    ...(question.serverInfo ? { serverInfo: question.serverInfo } : {}),
  };
}

/** Labels of the form's fields that look like secrets (the card warns before the form opens). */
function secretLabels(question: Question): string[] {
  return parseFormSchema(question.requestedSchema)
    .fields.filter((f) => f.secret === true)
    .map((f) => f.label);
}
