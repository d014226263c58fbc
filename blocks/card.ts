// Channel/DM messages: the request card with its buttons, the card once the question ended, and the
// reminder (tool results are in results.ts). Server text is escaped; Slack user ids are checked before
// becoming mentions.
import type { EndReason } from '../src/relay/types.js';
import { uiText, type Locale } from './i18n.js';
import { DECLINE_ACTION, RESPOND_ACTION } from './ids.js';
import { SlackLimitError, escapeMrkdwn, mrkdwn, mrkdwnChunks, plain, truncate } from './text.js';

export interface SlackMessage {
  /** Notification / fallback text (mrkdwn, escaped). */
  text: string;
  blocks: object[];
}

/** Sections a message may use on a card (the full message is also in the form). */
export const CARD_MESSAGE_SECTIONS_MAX = 5;
/** Characters of the message in the notification text. */
const NOTIFICATION_MAX = 300;
const SERVER_MAX = 200;
const SECTION_MAX = 3000;
/** Slack's limit on a button's value (the question id). */
export const BUTTON_VALUE_MAX = 2000;

const ICON = {
  accepted: ':white_check_mark:',
  declined: ':no_entry_sign:',
  cancelled: ':black_square_for_stop:',
};

export function requestCard(input: {
  questionId: string;
  server: string;
  message: string;
  /** Unix epoch milliseconds. */
  deadline: number;
  /** UI language; English when absent. */
  locale?: Locale;
}): SlackMessage {
  const t = uiText(input.locale);
  const server = serverName(input.server);
  return {
    text: `${t.needsInput(server)}: ${notification(input.message)}`,
    blocks: [
      { type: 'section', text: mrkdwn(t.needsInput(`*${server}*`)) },
      ...messageSections(input.message),
      deadlineContext(input.deadline, input.locale),
      {
        type: 'actions',
        block_id: 'elicit_actions',
        elements: [
          { ...button(t.respond, RESPOND_ACTION, input.questionId), style: 'primary' },
          button(t.decline, DECLINE_ACTION, input.questionId),
        ],
      },
    ],
  };
}

export function endedCard(input: {
  server: string;
  message: string;
  state: 'accepted' | 'declined' | 'cancelled';
  reason: EndReason;
  /** Slack user id of the person who answered or declined. */
  byUserId?: string;
  /** 'url' for a URL-mode question: "answered" then reads "Link opened". Default 'form'. */
  mode?: 'form' | 'url';
  /** UI language; English when absent. */
  locale?: Locale;
}): SlackMessage {
  const t = uiText(input.locale);
  const server = serverName(input.server);
  const by =
    input.byUserId !== undefined && /^[UW][A-Z0-9]{1,20}$/.test(input.byUserId) ? input.byUserId : undefined;
  const base = input.mode === 'url' && input.reason === 'answered' ? t.linkOpened : t.ended[input.reason];
  const named = (input.reason === 'answered' || input.reason === 'declined') && by !== undefined;
  const status = named ? t.byPerson(base, `<@${by}>`) : base;
  return {
    text: `${server}: ${status}`,
    blocks: [
      { type: 'section', text: mrkdwn(t.asked(`*${server}*`)) },
      ...messageSections(input.message),
      { type: 'context', elements: [mrkdwn(`${ICON[input.state]} ${status}`)] },
    ],
  };
}

/** A button whose value is the question id (checked against Slack's value limit). */
export function button(text: string, action_id: string, questionId: string): Record<string, unknown> {
  if (questionId.length > BUTTON_VALUE_MAX)
    throw new SlackLimitError('question id too long for a button value');
  return { type: 'button', action_id, text: plain(text, 75), value: questionId };
}

/** "Answer by <date token>" with a UTC fallback for clients that can't render the token. */
export function deadlineContext(deadline: number, locale?: Locale): object {
  const seconds = Math.floor(deadline / 1000);
  const fallback = new Date(seconds * 1000)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
  const t = uiText(locale);
  const token = `<!date^${seconds}^${t.dateFormat}|${fallback}>`;
  return { type: 'context', elements: [mrkdwn(t.answerBy(token))] };
}

/** A nudge posted in the card's thread before the deadline, mentioning the person who must answer. */
export function reminderMessage(input: {
  server: string;
  userId: string;
  deadline: number;
  locale?: Locale;
}): SlackMessage {
  const t = uiText(input.locale);
  const mention = /^[UW][A-Z0-9]{2,}$/.test(input.userId) ? `<@${input.userId}> ` : '';
  const text = `${mention}${t.reminder(serverName(input.server))}`;
  return {
    text,
    blocks: [{ type: 'section', text: mrkdwn(text) }, deadlineContext(input.deadline, input.locale)],
  };
}

export function serverName(server: string): string {
  return escapeMrkdwn(truncate(server.trim() || 'An MCP server', SERVER_MAX));
}

export function notification(message: string): string {
  return escapeMrkdwn(truncate(message.replace(/\s+/g, ' ').trim(), NOTIFICATION_MAX));
}

export function messageSections(message: string): object[] {
  return mrkdwnChunks(message, SECTION_MAX, CARD_MESSAGE_SECTIONS_MAX).map((text) => ({
    type: 'section',
    text: mrkdwn(text),
  }));
}
