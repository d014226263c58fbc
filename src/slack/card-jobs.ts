// The outbox jobs of a question's cards, which the surface (surface.ts) sends: each card's post, the updates that
// change it and the reminders posted under it. A job's key names its card and what it does to the card, so that
// every try of one job (queued again while Redis is unavailable, or by another replica) is the same outbox job,
// and its call is made once.
import type { SlackMessage } from '../../blocks/index.js';
import type { CardRef, Question } from '../relay/types.js';
import type { OutboxJob } from './outbox/index.js';

/**
 * The outbox key of one card's post or update: `<kind>-<id>` for the first card (as before there were several),
 * `<kind>-<id>-<n>` for the n-th other.
 */
export const cardKey = (kind: string, id: string, index: number): string =>
  index === 0 ? `${kind}-${id}` : `${kind}-${id}-${index}`;

/** The outbox job field that picks the question's workspace client. */
const workspaceOf = (question: Question): { teamId?: string } =>
  question.origin.teamId ? { teamId: question.origin.teamId } : {};

/** The post of one of the question's cards, in `to.channel` (in `to.thread` when the card goes in a thread). */
export function cardPost(
  question: Question,
  card: SlackMessage,
  to: { channel: string; key: string; thread: { thread_ts?: string } },
): OutboxJob {
  return {
    method: 'chat.postMessage',
    channel: to.channel,
    deadline: question.deadline,
    key: to.key,
    ...workspaceOf(question),
    // A server-chosen link must never be previewed (fetched) on its behalf.
    args: { text: card.text, blocks: card.blocks, unfurl_links: false, unfurl_media: false, ...to.thread },
  };
}

/** The update of the posted card `posted` to read `card`. */
export function cardUpdate(question: Question, posted: CardRef, card: SlackMessage, key: string): OutboxJob {
  return {
    method: 'chat.update',
    channel: posted.channel,
    key,
    ...workspaceOf(question),
    args: { ts: posted.ts, text: card.text, blocks: card.blocks },
  };
}

/**
 * The reminder `message` under the question's `index`-th card `card`, in thread `threadTs`; `at` (epoch ms) tells
 * one reminder of the question from another. Posted only while the question is pending.
 */
export function reminderPost(
  question: Question,
  to: { card: CardRef; index: number; at: number; threadTs: string },
  message: SlackMessage,
): OutboxJob {
  return {
    method: 'chat.postMessage',
    channel: to.card.channel,
    deadline: question.deadline,
    key: cardKey(`remind-${question.id}`, String(to.at), to.index),
    whilePending: question.id,
    ...workspaceOf(question),
    args: { text: message.text, blocks: message.blocks, thread_ts: to.threadTs },
  };
}
