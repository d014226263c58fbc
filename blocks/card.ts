// Channel/DM messages: the request card with its buttons, the card once the question ended,
// and a tool call's result. Server text is escaped; Slack user ids are checked before becoming mentions.
import type { EndReason } from '../src/relay/types.js';
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
const BUTTON_VALUE_MAX = 2000;

const ENDED: Record<EndReason, string> = {
  answered: 'Answered',
  declined: 'Declined',
  closed: 'Closed without answering',
  timed_out: 'Expired: no answer in time',
  withdrawn: 'Withdrawn by the server',
  call_ended: 'Cancelled: the tool call that asked has ended',
  holder_lost: 'Cancelled: the connection to the server was lost',
  delivery_failed: 'Cancelled: the request could not be delivered',
};
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
}): SlackMessage {
  if (input.questionId.length > BUTTON_VALUE_MAX)
    throw new SlackLimitError('question id too long for a button value');
  const server = serverName(input.server);
  const seconds = Math.floor(input.deadline / 1000);
  const fallback = new Date(seconds * 1000)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
  const button = (text: string, action_id: string) => ({
    type: 'button',
    action_id,
    text: plain(text, 75),
    value: input.questionId,
  });
  return {
    text: `${server} needs your input: ${notification(input.message)}`,
    blocks: [
      { type: 'section', text: mrkdwn(`*${server}* needs your input`) },
      ...messageSections(input.message),
      {
        type: 'context',
        elements: [mrkdwn(`Answer by <!date^${seconds}^{date_short_pretty} at {time}|${fallback}>`)],
      },
      {
        type: 'actions',
        block_id: 'elicit_actions',
        elements: [
          { ...button('Respond', RESPOND_ACTION), style: 'primary' },
          button('Decline', DECLINE_ACTION),
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
}): SlackMessage {
  const server = serverName(input.server);
  const by =
    input.byUserId !== undefined && /^[UW][A-Z0-9]{1,20}$/.test(input.byUserId) ? input.byUserId : undefined;
  const byPerson = (input.reason === 'answered' || input.reason === 'declined') && by ? ` by <@${by}>` : '';
  const status = `${ENDED[input.reason]}${byPerson}`;
  return {
    text: `${server}: ${status}`,
    blocks: [
      { type: 'section', text: mrkdwn(`*${server}* asked`) },
      ...messageSections(input.message),
      { type: 'context', elements: [mrkdwn(`${ICON[input.state]} ${status}`)] },
    ],
  };
}

export function toolResultMessage(input: {
  server: string;
  tool: string;
  isError: boolean;
  text: string;
}): SlackMessage {
  const server = serverName(input.server);
  const tool = escapeMrkdwn(truncate(input.tool, SERVER_MAX));
  const headline = input.isError
    ? `:warning: *${tool}* on *${server}* failed`
    : `:white_check_mark: *${tool}* on *${server}* finished`;
  const sections = messageSections(input.text);
  const body = sections.length > 0 ? sections : [{ type: 'context', elements: [mrkdwn('(no output)')] }];
  return {
    text: input.isError ? `${tool} on ${server} failed` : `${tool} on ${server} finished`,
    blocks: [{ type: 'section', text: mrkdwn(headline) }, ...body],
  };
}

function serverName(server: string): string {
  return escapeMrkdwn(truncate(server.trim() || 'An MCP server', SERVER_MAX));
}

function notification(message: string): string {
  return escapeMrkdwn(truncate(message.replace(/\s+/g, ' ').trim(), NOTIFICATION_MAX));
}

function messageSections(message: string): object[] {
  return mrkdwnChunks(message, SECTION_MAX, CARD_MESSAGE_SECTIONS_MAX).map((text) => ({
    type: 'section',
    text: mrkdwn(text),
  }));
}
