// Channel/DM messages: the request card with its buttons, the card once the question ended, and the
// reminder (tool results are in results.ts). Server text is escaped; Slack user ids are checked before
// becoming mentions.
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { isPersonReason, type EndReason } from '../src/relay/types.js';
import { endedLabel, uiText, type Locale, type UiText } from './i18n.js';
import { DECLINE_ACTION, RESPOND_ACTION } from './ids.js';
import { BUTTON_TEXT_MAX, BUTTON_VALUE_MAX, SECTION_TEXT_MAX } from './slack-limits.js';
import { answerSections } from './summary.js';
import { SlackLimitError, escapeMrkdwn, mrkdwn, mrkdwnChunks, plain, section, truncate } from './text.js';

export interface SlackMessage {
  /** Notification / fallback text (mrkdwn, escaped). */
  text: string;
  blocks: KnownBlock[];
}

/** Sections a message may use on a card (the full message is also in the form). */
export const CARD_MESSAGE_SECTIONS_MAX = 5;
/** Characters of the message in the notification text. */
const NOTIFICATION_MAX = 300;
const SERVER_MAX = 200;
/** Characters of field labels listed in the secret warning. */
const WARNING_NAMES_MAX = 1000;

const ICON = {
  accepted: ':white_check_mark:',
  declined: ':no_entry_sign:',
  cancelled: ':black_square_for_stop:',
};

/** Who asks and for whom, shown under a card's headline when known. */
export interface CardAbout {
  /** The server's own name and version (`serverInfo`). */
  serverInfo?: { name: string; version: string; title?: string };
  /** Who started the tool call: a Slack user id (mentioned) or an automation's name. */
  requester?: string;
}

/** What a request card shows. */
export interface RequestCardInput extends CardAbout {
  questionId: string;
  server: string;
  message: string;
  /** Unix epoch milliseconds. */
  deadline: number;
  /** Labels of the form's fields that look like secrets (the form engine's warning); none when absent. */
  secretFields?: string[];
  /**
   * Who may answer, as mrkdwn ("<@U1> or members of <!subteam^S1>"), for a question that names its answerers:
   * a card in a channel shows its buttons to every member, and this says whose they are. Absent: the person
   * asked (the card is in their DM).
   */
  answerers?: string;
  /**
   * The card of someone who may not answer (the requester's own DM when a server's answerers are others, each
   * with a card in their DM): no Respond or Decline, and `answerers` reads "Waiting for an answer from …".
   */
  watching?: boolean;
  /** UI language; English when absent. */
  locale?: Locale;
}

export function requestCard(input: RequestCardInput): SlackMessage {
  const t = uiText(input.locale);
  const server = serverName(input.server);
  const watching = input.watching === true;
  const deadline = deadlineContext(input.deadline, input.locale);
  const who = input.answerers;
  if (who !== undefined) deadline.elements.push(mrkdwn(watching ? t.waitingFor(who) : t.onlyThey(who)));
  const headline = watching ? t.asked : t.needsInput;
  return {
    text: `${headline(server)}: ${notification(input.message)}`,
    blocks: [
      { type: 'section', text: mrkdwn(headline(`*${server}*`)) },
      ...aboutContext(input, input.locale),
      ...secretWarning(input.secretFields ?? [], input.locale),
      ...messageSections(input.message),
      deadline,
      ...(watching ? [] : [answerActions(input.questionId, t)]),
    ],
  };
}

/** Respond and Decline, carrying the question's id. */
function answerActions(questionId: string, t: UiText): ActionsBlock {
  return {
    type: 'actions',
    block_id: 'elicit_actions',
    elements: [
      { ...button(t.respond, RESPOND_ACTION, questionId), style: 'primary' },
      button(t.decline, DECLINE_ACTION, questionId),
    ],
  };
}

export function endedCard(
  input: CardAbout & {
    server: string;
    message: string;
    state: 'accepted' | 'declined' | 'cancelled';
    reason: EndReason;
    /** Slack user id of the person who answered, declined or closed. */
    byUserId?: string;
    /** When it ended, Unix epoch milliseconds; shown as a Slack date when given. */
    at?: number;
    /** The answer's lines (see answerLines), or 'hidden' when the server's policy hides content. */
    answer?: string[] | 'hidden';
    /** 'url' for a URL-mode question: "answered" then reads "Link opened". Default 'form'. */
    mode?: 'form' | 'url';
    /** UI language; English when absent. */
    locale?: Locale;
  },
): SlackMessage {
  const t = uiText(input.locale);
  const server = serverName(input.server);
  const by = input.byUserId !== undefined && isUserId(input.byUserId) ? input.byUserId : undefined;
  const base = endedStatus(input, t);
  const named = isPersonReason(input.reason) && by !== undefined ? t.byPerson(base, `<@${by}>`) : base;
  const status = input.at === undefined ? named : t.endedAt(named, dateToken(input.at, input.locale));
  return {
    text: `${server}: ${named}`,
    blocks: [
      { type: 'section', text: mrkdwn(t.asked(`*${server}*`)) },
      ...aboutContext(input, input.locale),
      ...messageSections(input.message),
      ...answerBlocks(input.answer, input.locale),
      { type: 'context', elements: [mrkdwn(`${ICON[input.state]} ${status}`)] },
    ],
  };
}

/** What happened, before who did it and when: an automation that withdrew its question is named. */
function endedStatus(
  input: { reason: EndReason; mode?: 'form' | 'url'; requester?: string },
  t: UiText,
): string {
  const who = input.requester;
  if (input.reason !== 'withdrawn' || who === undefined || isUserId(who)) {
    return endedLabel(t, input.reason, input.mode);
  }
  return t.withdrawnBy(automation(who, t));
}

/** A requester that is not a person, named as an automation. */
const automation = (name: string, t: UiText): string =>
  t.automation(escapeMrkdwn(truncate(name, SERVER_MAX)));

/** Slack user ids become mentions; anything else is a name. */
const isUserId = (id: string): boolean => /^[UW][A-Z0-9]{1,20}$/.test(id);

/** "Server: name 1.2.3 · Requested by @person" under the headline; nothing when neither is known. */
function aboutContext(about: CardAbout, locale?: Locale): ContextBlock[] {
  const t = uiText(locale);
  const parts: string[] = [];
  const info = about.serverInfo;
  if (info) {
    const named = truncate(`${(info.title ?? info.name).trim() || info.name} ${info.version}`, SERVER_MAX);
    parts.push(t.serverVersion(escapeMrkdwn(named)));
  }
  const who = about.requester;
  if (who !== undefined && who !== '') {
    const requester = isUserId(who) ? `<@${who}>` : automation(who, t);
    parts.push(t.requestedBy(requester));
  }
  return parts.length === 0 ? [] : [{ type: 'context', elements: parts.map((p) => mrkdwn(p)) }];
}

function secretWarning(labels: string[], locale?: Locale): ContextBlock[] {
  if (labels.length === 0) return [];
  // Cut after escaping: a label of "&" or "<" grows fivefold or fourfold when escaped, and 1000 cut characters
  // escaped could pass a context text's 3000.
  const names = mrkdwnChunks(labels.join(', '), WARNING_NAMES_MAX, 1)[0] ?? '';
  return [{ type: 'context', elements: [mrkdwn(uiText(locale).secretWarning(names))] }];
}

function answerBlocks(answer: string[] | 'hidden' | undefined, locale?: Locale): KnownBlock[] {
  if (answer === undefined || answer.length === 0) return [];
  if (answer === 'hidden') return [{ type: 'context', elements: [mrkdwn(uiText(locale).answerHidden)] }];
  return answerSections(answer);
}

/** A button whose value is the question id (checked against Slack's value limit). */
export function button(text: string, action_id: string, questionId: string): Button {
  if (questionId.length > BUTTON_VALUE_MAX)
    throw new SlackLimitError('question id too long for a button value');
  return { type: 'button', action_id, text: plain(text, BUTTON_TEXT_MAX), value: questionId };
}

/** "Answer by <date token>" with a UTC fallback for clients that can't render the token. */
export function deadlineContext(deadline: number, locale?: Locale): ContextBlock {
  return { type: 'context', elements: [mrkdwn(uiText(locale).answerBy(dateToken(deadline, locale)))] };
}

/** A Slack date token (each reader's time zone) with a UTC fallback, for epoch ms. */
function dateToken(at: number, locale?: Locale): string {
  const seconds = Math.floor(at / 1000);
  const fallback = new Date(seconds * 1000)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
  return `<!date^${seconds}^${uiText(locale).dateFormat}|${fallback}>`;
}

/** People a reminder mentions by name; more would make the nudge a wall of names. */
const REMINDER_MENTIONS_MAX = 20;

/** A nudge posted in the card's thread before the deadline, mentioning those who may answer. */
export function reminderMessage(input: {
  server: string;
  /** Slack user ids (mentioned) of those who may answer. */
  userId: string | string[];
  /** User groups (S… ids) that may answer, mentioned as groups. */
  groups?: string[];
  deadline: number;
  locale?: Locale;
}): SlackMessage {
  const t = uiText(input.locale);
  const users = (Array.isArray(input.userId) ? input.userId : [input.userId]).filter((u) =>
    /^[UW][A-Z0-9]{2,}$/.test(u),
  );
  const groups = (input.groups ?? []).filter((g) => /^S[A-Z0-9]{2,}$/.test(g));
  const people = users.slice(0, REMINDER_MENTIONS_MAX).map((u) => `<@${u}>`);
  const mentions = [...groups.map((g) => `<!subteam^${g}>`), ...people];
  const mention = mentions.length > 0 ? `${mentions.join(' ')} ` : '';
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

export function messageSections(message: string): SectionBlock[] {
  return mrkdwnChunks(message, SECTION_TEXT_MAX, CARD_MESSAGE_SECTIONS_MAX).map(section);
}
