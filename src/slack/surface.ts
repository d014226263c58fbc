// The Slack surface of the relay: posts the request card in the person's DM and updates it when the question ends.
// Cards go through the outbox (retries, Retry-After, pacing). Slack API errors propagate, never swallowed:
// the relay ends a question whose card cannot be posted.
import { endedCard, reminderMessage, requestCard, urlCard } from '../../blocks/index.js';
import { RelayError } from '../relay/errors.js';
import type { Surface } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import type { Outbox } from '../store/index.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';

/** The outbox job field that picks the question's workspace client. */
const workspaceOf = (question: Question): { teamId?: string } =>
  question.origin.teamId ? { teamId: question.origin.teamId } : {};

/** Told when a question's card is out and when a question ends (the App Home inbox follows both). */
export interface QuestionObserver {
  started(question: Question): void;
  ended(question: Question): void;
}

export class SlackSurface implements Surface {
  /** DM channel ids by workspace and user id; chat.update needs the D… id, not the user id. */
  private readonly dms = new Map<string, string>();
  private observer: QuestionObserver | undefined;

  constructor(
    private readonly clients: SlackClients,
    readonly locales: Locales,
    private readonly outbox: Outbox,
  ) {}

  async postQuestion(question: Question): Promise<{ channel: string; ts: string }> {
    const channel = await this.dmOf(question.userId, question.origin.teamId);
    const input = {
      locale: await this.locales.of(question.userId, question.origin.teamId),
      questionId: question.id,
      server: question.server,
      message: question.message,
      deadline: question.deadline,
    };
    const card = question.url ? urlCard({ ...input, url: question.url.url }) : requestCard(input);
    const posted = await this.outbox.send({
      method: 'chat.postMessage',
      channel,
      deadline: question.deadline,
      key: `card-${question.id}`,
      ...workspaceOf(question),
      // A server-chosen link must never be previewed (fetched) on its behalf.
      args: { text: card.text, blocks: card.blocks, unfurl_links: false, unfurl_media: false },
    });
    if (!posted.ok) throw new RelayError('slack_post_failed', `chat.postMessage failed: ${posted.error}`);
    if (!posted.ts) throw new RelayError('slack_bad_response', 'chat.postMessage returned no ts');
    this.observer?.started(question);
    return { channel: posted.channel ?? channel, ts: posted.ts };
  }

  observe(observer: QuestionObserver): void {
    this.observer = observer;
  }

  async showEnded(question: Question, byUserId?: string): Promise<void> {
    if (!question.card || question.state === 'pending') return;
    this.observer?.ended(question);
    const card = endedCard({
      locale: await this.locales.of(question.userId, question.origin.teamId),
      server: question.server,
      message: question.message,
      state: question.state,
      reason: question.reason ?? 'timed_out',
      mode: question.url ? 'url' : 'form',
      ...(byUserId ? { byUserId } : {}),
    });
    const updated = await this.outbox.send({
      method: 'chat.update',
      channel: question.card.channel,
      key: `ended-${question.id}`,
      ...workspaceOf(question),
      args: { ts: question.card.ts, text: card.text, blocks: card.blocks },
    });
    if (!updated.ok) throw new RelayError('slack_update_failed', `chat.update failed: ${updated.error}`);
  }

  async remind(question: Question): Promise<void> {
    if (!question.card) return;
    const message = reminderMessage({
      server: question.server,
      userId: question.userId,
      deadline: question.deadline,
      locale: await this.locales.of(question.userId, question.origin.teamId),
    });
    const sent = await this.outbox.send({
      method: 'chat.postMessage',
      channel: question.card.channel,
      deadline: question.deadline,
      key: `remind-${question.id}-${question.deadline}`,
      ...workspaceOf(question),
      args: { text: message.text, blocks: message.blocks, thread_ts: question.card.ts },
    });
    if (!sent.ok) throw new RelayError('slack_post_failed', `reminder failed: ${sent.error}`);
  }

  /** The person's DM channel with the bot (conversations.open once, then cached). */
  async dmOf(userId: string, teamId: string | undefined): Promise<string> {
    const key = `${teamId ?? ''}:${userId}`;
    const known = this.dms.get(key);
    if (known) return known;
    const client = await this.clients.for(teamId);
    const opened = await client.conversations.open({ users: userId });
    const id = opened.channel?.id;
    if (!id) throw new RelayError('slack_bad_response', 'conversations.open returned no channel');
    this.dms.set(key, id);
    return id;
  }
}
