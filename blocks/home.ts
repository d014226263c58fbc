// The App Home tab as a person's inbox: pending questions, soonest deadline first, with the card's own Respond
// / Decline (or Open link) buttons, then their most recent answers. Sized to Slack's 100-block limit.
import { HEADER_TEXT_MAX } from './slack-limits.js';
import type { Button, ContextBlock, HomeView, KnownBlock } from '@slack/types';
import type { AnswerSummary } from '../src/relay/types.js';
import { button, deadlineContext, serverName } from './card.js';
import { endedLabel, uiText, type Locale } from './i18n.js';
import { commandText } from './i18n-commands.js';
import { DECLINE_ACTION, RESPOND_ACTION, URL_CONSENT_ACTION } from './ids.js';
import { mrkdwn, mrkdwnChunks, mrkdwnContext, plain, section } from './text.js';
import { urlFacts } from './url-card.js';
import { connectionBlocks, type HomeConnection } from './sign-in.js';

/** Pending questions shown (3 blocks each); with the frame and HOME_RECENT_MAX answers this stays ≤ 100 blocks. */
export const HOME_PENDING_MAX = 25;
/** Recent answers shown (1 block each). */
export const HOME_RECENT_MAX = 10;
/** Characters of a question's message shown in the Home tab (the card and the form show all of it). */
const MESSAGE_MAX = 500;
/** Characters of an answered question's message in the recent list. */
const RECENT_MESSAGE_MAX = 150;

export interface HomeQuestion {
  id: string;
  server: string;
  message: string;
  /** Unix epoch milliseconds. */
  deadline: number;
  /** URL mode: the link the person is asked to open. */
  url?: { url: string };
}

/** A recent answer (the question id is not shown). */
export type HomeAnswer = Omit<AnswerSummary, 'questionId'>;

export type { HomeView };

const ICON: Record<AnswerSummary['state'], string> = {
  accepted: ':white_check_mark:',
  declined: ':no_entry_sign:',
  cancelled: ':black_square_for_stop:',
};

export function homeView(input: {
  pending: HomeQuestion[];
  recent: HomeAnswer[];
  /** The person's sign-ins to servers that need one; absent when no server does (no section then). */
  connections?: HomeConnection[];
  locale?: Locale;
}): HomeView {
  const t = commandText(input.locale);
  const shown = input.pending.slice(0, HOME_PENDING_MAX);
  const hidden = input.pending.length - shown.length;
  const pending = shown.flatMap((q, i) => pendingBlocks(q, i, input.locale));
  const recent = input.recent.slice(0, HOME_RECENT_MAX).map((a) => answerBlock(a, input.locale));
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: plain(t.homeHeader, HEADER_TEXT_MAX) },
      mrkdwnContext(t.homeIntro),
      ...(pending.length > 0 ? pending : [section(t.homeNothing)]),
      ...(hidden > 0 ? [mrkdwnContext(t.homeMore(hidden))] : []),
      { type: 'divider' },
      { type: 'header', text: plain(t.homeRecentHeader, HEADER_TEXT_MAX) },
      ...(recent.length > 0 ? recent : [mrkdwnContext(t.homeNoRecent)]),
      ...(input.connections ? connectionBlocks(input.connections, input.locale) : []),
    ],
  };
}

function pendingBlocks(q: HomeQuestion, index: number, locale?: Locale): KnownBlock[] {
  const t = uiText(locale);
  const [message] = mrkdwnChunks(q.message, MESSAGE_MAX, 1);
  const text = `${t.needsInput(`*${serverName(q.server)}*`)}${message ? `\n${message}` : ''}`;
  // An unusable link (it was checked when the question was asked) leaves only Decline.
  const href = q.url ? hrefOf(q.url.url) : undefined;
  const answer: Button | undefined = q.url
    ? href
      ? { ...button(t.openLink, URL_CONSENT_ACTION, q.id), url: href, style: 'primary' }
      : undefined
    : { ...button(t.respond, RESPOND_ACTION, q.id), style: 'primary' };
  return [
    { type: 'section', text: mrkdwn(text) },
    deadlineContext(q.deadline, locale),
    {
      type: 'actions',
      // Unique per view; the listeners match on action_id and read the question id from the value.
      block_id: `home_q${index}`,
      elements: [...(answer ? [answer] : []), button(t.decline, DECLINE_ACTION, q.id)],
    },
  ];
}

function hrefOf(url: string): string | undefined {
  try {
    return urlFacts(url).href;
  } catch {
    return undefined;
  }
}

function answerBlock(a: HomeAnswer, locale?: Locale): ContextBlock {
  const t = uiText(locale);
  const status = endedLabel(t, a.reason, a.mode);
  const [message] = mrkdwnChunks(a.message, RECENT_MESSAGE_MAX, 1);
  const seconds = Math.floor(a.at / 1000);
  const fallback = new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const when = `<!date^${seconds}^${t.dateFormat}|${fallback} UTC>`;
  return {
    type: 'context',
    elements: [
      mrkdwn(`${ICON[a.state]} *${serverName(a.server)}*: ${status} · ${when}`),
      ...(message ? [mrkdwn(message)] : []),
    ],
  };
}
