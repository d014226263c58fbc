// A tool call's outcome as Slack messages: the result (text, a readable summary of structured content, or
// the error and its reason), the links a -32042 answer asks the person to open with a Retry button, and
// the "working…" message that progress updates. Server text is escaped and sized to Slack's limits.
import { BUTTON_TEXT_MAX, BUTTON_VALUE_MAX, SECTION_TEXT_MAX } from './slack-limits.js';
import type { Button, ContextBlock, KnownBlock } from '@slack/types';
import { serverName, type SlackMessage } from './card.js';
import type { Locale } from './i18n.js';
import { commandText, type CommandText } from './i18n-commands.js';
import { SlackLimitError, escapeMrkdwn, mrkdwn, mrkdwnChunks, plain, section, truncate } from './text.js';
import { cancelBlock, type RunCancelTarget } from './run-cancel.js';
import { urlFacts } from './url-card.js';

type ToolOn = (tool: string, server: string) => string;

/** Output longer than this many characters, or than INLINE_LINES_MAX lines, goes out as a snippet file. */
export const INLINE_CHARS_MAX = SECTION_TEXT_MAX;
export const INLINE_LINES_MAX = 40;
/**
 * Retry button (value: the call as JSON) of a -32042 answer, also the Start again button of a call whose
 * round expired; and the link buttons of a -32042 answer.
 */
export const RETRY_ACTION = 'mcp_retry';
export const LINK_ACTION_PREFIX = 'mcp_link_';
/** Links shown from one -32042 answer (each one section and one button). */
export const URL_LINKS_MAX = 10;
const TOOL_MAX = 200;
const SUMMARY_KEYS_MAX = 25;
const SUMMARY_VALUE_MAX = 300;
const PROGRESS_MESSAGE_MAX = 500;

export interface ToolOutcome {
  server: string;
  tool: string;
  isError: boolean;
  text: string;
  structured?: unknown;
  locale?: Locale;
}

/** Whether the text is too long to read in a message (it is then sent as a snippet file). */
export function needsSnippet(text: string): boolean {
  return text.length > INLINE_CHARS_MAX || text.split('\n').length > INLINE_LINES_MAX;
}

/**
 * The result message. `attached`: the text went out as a file, so the message only says so; `shortened`:
 * attaching failed and the text is cut to one section with a note.
 */
export function resultMessage(
  input: ToolOutcome & { attached?: boolean; shortened?: boolean; restart?: RetryTarget },
): SlackMessage {
  const t = commandText(input.locale);
  const [tool, server] = names(input);
  const headline = input.isError
    ? `:warning: ${t.failed(`*${tool}*`, `*${server}*`)}`
    : `:white_check_mark: ${t.finished(`*${tool}*`, `*${server}*`)}`;
  const blocks: KnownBlock[] = [{ type: 'section', text: mrkdwn(headline) }];
  const text = sameAsStructured(input.text, input.structured) ? '' : input.text;
  if (input.attached) {
    blocks.push(context(t.attached(input.text.split('\n').length)));
  } else {
    const chunks = mrkdwnChunks(text, SECTION_TEXT_MAX, input.shortened ? 1 : 5);
    blocks.push(...chunks.map(section));
    if (input.shortened) blocks.push(context(t.attachFailed));
  }
  const summary = structuredSummary(input.structured);
  if (summary !== undefined) {
    blocks.push(context(`*${t.structuredHeader}*`), { type: 'section', text: mrkdwn(summary) });
  }
  if (blocks.length === 1) blocks.push(context(t.noOutput));
  if (input.restart !== undefined) {
    blocks.push(context(t.roundExpired), rerunBlock(input.restart, t.startAgain, t.retryTooLong));
  }
  const plainTool = escapeMrkdwn(truncate(input.tool, TOOL_MAX));
  return { text: input.isError ? t.failed(plainTool, server) : t.finished(plainTool, server), blocks };
}

/**
 * Structured content as "key: value" lines (values as compact JSON), escaped, at most one section; a
 * non-object value is shown as its JSON. Undefined when there is none.
 */
export function structuredSummary(structured: unknown): string | undefined {
  if (structured === undefined || structured === null) return undefined;
  const entries =
    typeof structured === 'object' && !Array.isArray(structured)
      ? Object.entries(structured as Record<string, unknown>)
      : [['', structured] as const];
  if (entries.length === 0) return undefined;
  const lines = entries.slice(0, SUMMARY_KEYS_MAX).map(([key, value]) => {
    const shown = truncate(typeof value === 'string' ? value : JSON.stringify(value), SUMMARY_VALUE_MAX);
    return key === ''
      ? escapeMrkdwn(shown)
      : `• *${escapeMrkdwn(truncate(key, 100))}*: ${escapeMrkdwn(shown)}`;
  });
  if (entries.length > SUMMARY_KEYS_MAX) lines.push(`… (${entries.length - SUMMARY_KEYS_MAX})`);
  return truncate(lines.join('\n'), SECTION_TEXT_MAX);
}

/** The call a Retry button reruns, kept in the button's value. */
export interface RetryTarget {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /**
   * The person whose run it is: only they may rerun it, as the message may sit in a channel's thread. Absent in
   * the buttons of releases before it was kept (anyone who could click them reran them).
   */
  owner?: string;
}

/** A -32042 answer: the links to open (each with its message and host) and a Retry button. */
export function urlRequiredMessage(input: {
  server: string;
  tool: string;
  links: { url: string; message: string }[];
  args: Record<string, unknown>;
  owner?: string;
  locale?: Locale;
  /**
   * An automation's call (the API's): no Retry button, whose rerun would not reach the automation; the call
   * retries itself once the server says every link is done.
   */
  retriesItself?: boolean;
}): SlackMessage {
  const t = commandText(input.locale);
  const [tool, server] = names(input);
  const blocks: KnownBlock[] = [
    { type: 'section', text: mrkdwn(`:link: ${t.urlRequired(`*${tool}*`, `*${server}*`)}`) },
  ];
  input.links.slice(0, URL_LINKS_MAX).forEach((link, i) => blocks.push(...linkBlocks(link, i, t.openLink)));
  blocks.push(input.retriesItself ? context(t.retriesItself) : rerunBlock(input, t.retry, t.retryTooLong));
  return { text: t.urlRequired(tool, server), blocks };
}

/**
 * The button that runs `target` again (RETRY_ACTION, the call in its value), labelled `label`; when the
 * arguments do not fit a button's value, a line saying so (`tooLong`) instead.
 */
function rerunBlock(target: RetryTarget, label: string, tooLong: string): KnownBlock {
  const owner = target.owner === undefined ? {} : { u: target.owner };
  const value = JSON.stringify({ s: target.server, t: target.tool, a: target.args, ...owner });
  if (value.length > BUTTON_VALUE_MAX) return context(tooLong);
  const rerun: Button = {
    type: 'button',
    action_id: RETRY_ACTION,
    text: plain(label, BUTTON_TEXT_MAX),
    value,
    style: 'primary',
  };
  return { type: 'actions', block_id: 'mcp_retry', elements: [rerun] };
}

function linkBlocks(link: { url: string; message: string }, index: number, openLink: string): KnownBlock[] {
  let facts;
  try {
    facts = urlFacts(link.url);
  } catch {
    // A link that is not http(s) or does not parse is shown as text, never as a button.
    return [
      {
        type: 'section',
        text: mrkdwn(escapeMrkdwn(truncate(`${link.message} (${link.url})`, SECTION_TEXT_MAX))),
      },
    ];
  }
  const text = `${escapeMrkdwn(truncate(link.message, 1500))}\n\`${escapeMrkdwn(facts.unicodeHost)}\``;
  const open: Button = {
    type: 'button',
    action_id: `${LINK_ACTION_PREFIX}${index}`,
    text: plain(openLink, BUTTON_TEXT_MAX),
    url: facts.href,
  };
  return [
    { type: 'section', text: mrkdwn(text) },
    { type: 'actions', block_id: `mcp_link_${index}`, elements: [open] },
  ];
}

/** The Retry button's call, or undefined when the value is not one. */
export function retryTargetOf(value: string | undefined): RetryTarget | undefined {
  try {
    const data = JSON.parse(value ?? '') as { s?: unknown; t?: unknown; a?: unknown; u?: unknown };
    const args = data.a;
    if (typeof data.s !== 'string' || typeof data.t !== 'string') return undefined;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    const owner = typeof data.u === 'string' ? { owner: data.u } : {};
    return { server: data.s, tool: data.t, args: args as Record<string, unknown>, ...owner };
  } catch {
    return undefined;
  }
}

/**
 * What a -32042 answer's message becomes when its call is retried, by the person's click or once the server
 * said every link is done (`linksDone`): the buttons go, so the call is retried once.
 */
export function retryingMessage(input: {
  server: string;
  tool: string;
  linksDone?: boolean;
  locale?: Locale;
}): SlackMessage {
  const t = commandText(input.locale);
  const [tool, server] = names(input).map((name) => `\`${name}\``) as [string, string];
  const text = (input.linksDone ? t.linksDoneRetrying : t.retrying)(tool, server);
  return { text, blocks: [{ type: 'section', text: mrkdwn(text) }] };
}

/** How a call's "working…" message ends: the result follows it, or (cancelled) none does. */
export type WorkEnd = 'finished' | 'failed' | 'cancelled';

/**
 * The "working…" message of a call in progress, with a Cancel button when `cancel` names the run; `done` once
 * the call ended (the result follows it, but for a run its person cancelled: the message says by whom).
 */
export function progressMessage(input: {
  server: string;
  tool: string;
  progress?: { progress: number; total?: number; message?: string };
  done?: WorkEnd;
  cancel?: RunCancelTarget;
  locale?: Locale;
}): SlackMessage {
  const t = commandText(input.locale);
  const [tool, server] = names(input);
  const phrase = workPhrase(t, input.done, input.cancel?.owner);
  const icon = { finished: ':white_check_mark:', failed: ':warning:', cancelled: ':no_entry_sign:' };
  const headline = `${input.done ? icon[input.done] : ':hourglass_flowing_sand:'} ${phrase(`*${tool}*`, `*${server}*`)}`;
  const blocks: KnownBlock[] = [{ type: 'section', text: mrkdwn(headline) }];
  if (!input.done) blocks.push(context(progressLine(input.progress, t.stillWorking)));
  if (!input.done && input.cancel !== undefined) blocks.push(cancelBlock(input.cancel, t.cancelRun));
  return { text: phrase(tool, server), blocks };
}

/** What the "working…" message says: working, done, stopped, or cancelled by the run's `owner`. */
function workPhrase(t: CommandText, done: WorkEnd | undefined, owner: string | undefined): ToolOn {
  if (done === 'cancelled' && owner !== undefined) {
    return (tool, server) => t.workCancelled(tool, server, `<@${owner}>`);
  }
  if (done === 'finished') return t.workDone;
  return done === undefined ? t.working : t.workFailed;
}

/** The channel message that starts a run's thread (`route: thread`); its questions and result go under it. */
export function runThreadMessage(input: {
  userId: string;
  server: string;
  tool: string;
  locale?: Locale;
}): SlackMessage {
  const t = commandText(input.locale);
  const [tool, server] = names(input);
  const who = `<@${input.userId}>`;
  const headline = `:hammer_and_wrench: ${t.ranInThread(who, `*${tool}*`, `*${server}*`)}`;
  return { text: t.ranInThread(who, tool, server), blocks: [{ type: 'section', text: mrkdwn(headline) }] };
}

/** Said in the DM when a run's conversation refused the bot (e.g. `not_in_channel`), so the run went on there. */
export function threadUnavailableMessage(input: {
  channelId: string;
  error: string;
  locale?: Locale;
}): SlackMessage {
  const text = commandText(input.locale).threadUnavailable(
    `<#${input.channelId}>`,
    escapeMrkdwn(input.error),
  );
  return { text, blocks: [{ type: 'section', text: mrkdwn(`:warning: ${text}`) }] };
}

function progressLine(
  progress: { progress: number; total?: number; message?: string } | undefined,
  fallback: string,
): string {
  if (progress === undefined) return fallback;
  const { total, message } = progress;
  const share =
    total !== undefined && total > 0 ? `${Math.round((progress.progress / total) * 100)}%` : undefined;
  const said = message?.trim() ? escapeMrkdwn(truncate(message.trim(), PROGRESS_MESSAGE_MAX)) : undefined;
  return [share, said].filter(Boolean).join(' · ') || fallback;
}

function names(input: { server: string; tool: string }): [string, string] {
  return [escapeMrkdwn(truncate(input.tool, TOOL_MAX)), serverName(input.server)];
}

function context(text: string): ContextBlock {
  if (text.length > SECTION_TEXT_MAX) throw new SlackLimitError('context text too long');
  return { type: 'context', elements: [mrkdwn(text)] };
}

function sameAsStructured(text: string, structured: unknown): boolean {
  if (structured === undefined) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(structured);
  } catch {
    return false;
  }
}
