// The URL-mode card: the full URL as inert text with its host in bold, warnings for look-alike (punycode/IDN),
// non-HTTPS and user-info URLs, an explicit "Open link" consent button and Decline (Retry and Cancel when a 2026
// server asks for the same link again, so the person can say the step is done or give up). Nothing here is a link
// Slack could unfurl or a server could forge: the only clickable URL is the button's own `url`.
import { BUTTON_URL_MAX } from './slack-limits.js';
import { domainToUnicode } from 'node:url';
import type { ActionsBlock, ContextBlock } from '@slack/types';
import {
  button,
  deadlineContext,
  messageSections,
  notification,
  serverName,
  type SlackMessage,
} from './card.js';
import { uiText, type Locale, type UiText } from './i18n.js';
import { DECLINE_ACTION, URL_CANCEL_ACTION, URL_CONSENT_ACTION, URL_RETRY_ACTION } from './ids.js';
import { escapeMrkdwn, mrkdwn, truncate } from './text.js';

const HOST_MAX = 255;

/** The URL can't be offered as a link: not http(s), unparsable, or too long for a Slack button. */
export class UrlError extends Error {
  override name = 'UrlError';
  readonly code = 'invalid_url';
}

/** What the card shows about a URL, exported so a deployment policy can look at the same facts. */
export interface UrlFacts {
  /** The URL opened by the button: WHATWG-normalized, backticks percent-encoded. */
  href: string;
  /** ASCII host (punycode for internationalized names). */
  host: string;
  /** The host as people read it (Unicode), equal to `host` unless internationalized. */
  unicodeHost: string;
  internationalized: boolean;
  https: boolean;
  hasUserInfo: boolean;
}

export function urlFacts(url: string): UrlFacts {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new UrlError('the URL does not parse', { cause });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UrlError(`only http and https links can be opened, got ${JSON.stringify(parsed.protocol)}`);
  }
  // A backtick would end the code span the URL is shown in; %60 is the same character to the server.
  const href = parsed.href.replace(/`/g, '%60');
  if (href.length > BUTTON_URL_MAX) throw new UrlError(`the URL is longer than ${BUTTON_URL_MAX} characters`);
  const host = parsed.hostname;
  const internationalized = host.split('.').some((label) => /^xn--/i.test(label));
  return {
    href,
    host,
    unicodeHost: internationalized ? domainToUnicode(host) || host : host,
    internationalized,
    https: parsed.protocol === 'https:',
    hasUserInfo: parsed.username !== '' || parsed.password !== '',
  };
}

export function urlCard(input: {
  questionId: string;
  server: string;
  message: string;
  /** The URL-mode request's `url`; throws UrlError when it can't be offered. */
  url: string;
  /** Unix epoch milliseconds. */
  deadline: number;
  /** UI language; English when absent. */
  locale?: Locale;
  /**
   * A 2026 URL request (no completion notification; the call goes on after each answer): its card has Cancel,
   * which ends the call, from the first round on, so the person can always stop it.
   */
  roundLink?: boolean;
  /** A 2026 server asks for this link again (its step is not done): Retry and Cancel instead of Decline. */
  again?: boolean;
}): SlackMessage {
  const t = uiText(input.locale);
  const facts = urlFacts(input.url);
  const server = serverName(input.server);
  const host = escapeMrkdwn(truncate(facts.host, HOST_MAX));
  const roundHint = input.again ? t.urlAgain(`*${server}*`) : input.roundLink ? t.urlCancelHint : undefined;
  const again: ContextBlock[] = roundHint ? [{ type: 'context', elements: [mrkdwn(roundHint)] }] : [];
  return {
    text: `${t.urlNotification(server, host)}: ${notification(input.message)}`,
    blocks: [
      { type: 'section', text: mrkdwn(t.urlAsks(`*${server}*`)) },
      ...messageSections(input.message),
      {
        type: 'section',
        text: mrkdwn(`${t.urlHost(`*${host}*`)}\n\`${escapeMrkdwn(facts.href)}\``),
      },
      ...warningBlocks(facts, t),
      ...again,
      deadlineContext(input.deadline, input.locale),
      urlActions(input, t, facts.href),
    ],
  };
}

/** The URL-mode card once the server said the step behind its link is done (notifications/elicitation/complete). */
export function urlCompletedCard(input: {
  server: string;
  message: string;
  /** UI language; English when absent. */
  locale?: Locale;
}): SlackMessage {
  const t = uiText(input.locale);
  const server = serverName(input.server);
  return {
    text: `${server}: ${t.urlCompleted(server)}`,
    blocks: [
      { type: 'section', text: mrkdwn(t.urlAsks(`*${server}*`)) },
      ...messageSections(input.message),
      { type: 'context', elements: [mrkdwn(`:white_check_mark: ${t.urlCompleted(`*${server}*`)}`)] },
    ],
  };
}

/** Context lines warning of a look-alike (punycode) host, plain HTTP, or user info in the URL; none if none. */
function warningBlocks(facts: UrlFacts, t: UiText): ContextBlock[] {
  const warnings = [
    facts.internationalized ? t.urlPunycode(escapeMrkdwn(truncate(facts.unicodeHost, HOST_MAX))) : '',
    facts.https ? '' : t.urlNotHttps,
    facts.hasUserInfo ? t.urlUserInfo : '',
  ].filter((w) => w !== '');
  return warnings.length > 0 ? [{ type: 'context', elements: warnings.map((w) => mrkdwn(w)) }] : [];
}

/** Open link (the consent button carries the URL), Decline or (asked again) Retry; Cancel in a 2026 round. */
function urlActions(
  input: { questionId: string; roundLink?: boolean; again?: boolean },
  t: UiText,
  href: string,
): ActionsBlock {
  return {
    type: 'actions',
    block_id: 'elicit_actions',
    elements: [
      { ...button(t.openLink, URL_CONSENT_ACTION, input.questionId), url: href, style: 'primary' },
      input.again
        ? button(t.urlRetry, URL_RETRY_ACTION, input.questionId)
        : button(t.decline, DECLINE_ACTION, input.questionId),
      ...(input.again || input.roundLink ? [button(t.urlCancel, URL_CANCEL_ACTION, input.questionId)] : []),
    ],
  };
}
