// Text helpers that keep every string inside Slack's limits and every server string inert.
// Lengths are measured in UTF-16 units (what JavaScript and Slack's API count) but cuts only ever
// fall between code points, so a surrogate pair (emoji, rare CJK) is never split.
import type { ContextBlock, MrkdwnElement, PlainTextElement, SectionBlock } from '@slack/types';
import { graphemeCut } from './graphemes.js';

const ELLIPSIS = '…';
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

// Server text must read as what it is. Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069) and
// the invisible marks U+200B (zero-width space), U+200E/U+200F (LRM/RLM), U+2060 (word joiner) and U+FEFF are
// removed rather than shown: Slack has no way to show them visibly, and none carries meaning a person reads.
// ZWNJ/ZWJ (U+200C/U+200D) stay: emoji sequences (👩‍💻) and Persian or Indic spelling need them.
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\u2060\uFEFF]/g;
/**
 * `text` without bidi controls and invisible zero-width characters, lone surrogates (a surrogate half without its
 * partner: not text, and Slack would refuse or mangle it) as U+FFFD.
 */
export function neutralise(text: string): string {
  return text.toWellFormed().replace(INVISIBLE, '');
}

/** Whether `text` shows anything once neutralised: Slack refuses a plain_text that neutralising leaves blank. */
export function visible(text: string): boolean {
  return neutralise(text).trim() !== '';
}

/** `text` without control characters other than tab and newline: they show as nothing and cost 6 bytes each in JSON. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, '');
}

/** A Slack limit that the caller's own data (not the server's schema) would break. */
export class SlackLimitError extends Error {
  override name = 'SlackLimitError';
  readonly code = 'slack_limit';
}

/**
 * `text` cut to at most `max` UTF-16 units, ending in "…" when anything was cut, never inside a character as
 * drawn (graphemes.ts): an emoji sequence or flag that does not fit is left out whole.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // The code points that may fit and the one after them (its first unit is at most at max - 1; two more end it).
  return cutTokens(Array.from(text.slice(0, max + 2)), max);
}

/** `tokens` (code points or escaped entities) joined and cut so that they plus "…" fit in `max` units. */
function cutTokens(tokens: readonly string[], max: number): string {
  let end = 0;
  let size = 0;
  while (end < tokens.length && size + (tokens[end] ?? '').length <= max - ELLIPSIS.length)
    size += (tokens[end++] ?? '').length;
  return tokens.slice(0, graphemeCut(tokens, end)).join('') + ELLIPSIS;
}

/** Neutralises server text (see neutralise) and escapes the three characters Slack mrkdwn treats as control, so mentions and links stay literal. */
export function escapeMrkdwn(text: string): string {
  return neutralise(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `text` escaped for mrkdwn (escapeMrkdwn) and cut to at most `max` UTF-16 units, never inside an entity. */
export function escapeMrkdwnWithin(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  return escaped.length <= max ? escaped : truncateEscaped(escaped, max);
}

/** UTF-16 units of a tool's or server's name shown, escaped: a server may list a tool under a name of any length. */
export const CODE_NAME_MAX = 200;

/**
 * A name as mrkdwn code, backticks included: escaped (escapeMrkdwnWithin, so the cut counts what Slack receives),
 * its own backticks made quotes, since one would end the code span and let the rest read as mrkdwn.
 */
export function codeName(name: string, max = CODE_NAME_MAX): string {
  return `\`${escapeMrkdwnWithin(name, max).replace(/`/g, "'")}\``;
}

/**
 * Escapes `text` for mrkdwn and splits it into chunks of at most `max` UTF-16 units, never inside an
 * entity, a surrogate pair or a character as drawn (graphemes.ts). A chunk prefers to end after the last newline or space in its second half.
 * At most `maxChunks` chunks are returned; the last one ends in "…" when text was left out.
 */
export function mrkdwnChunks(text: string, max: number, maxChunks: number): string[] {
  const tokens = Array.from(withoutControls(neutralise(text)), escapeMrkdwn);
  const chunks: string[] = [];
  let start = 0;
  while (start < tokens.length && chunks.length < maxChunks) {
    let end = start;
    let size = 0;
    while (end < tokens.length && size + (tokens[end] ?? '').length <= max)
      size += (tokens[end++] ?? '').length;
    // Not inside an emoji sequence or a flag either, unless one character is longer than a chunk.
    end = preferBreak(tokens, start, end);
    const whole = graphemeCut(tokens, end, start);
    end = Math.max(whole > start ? whole : end, start + 1);
    chunks.push(tokens.slice(start, end).join(''));
    start = end;
  }
  if (start < tokens.length && chunks.length > 0) {
    const last = chunks.pop() ?? '';
    chunks.push(truncateEscaped(last, max));
  }
  // Slack refuses blank text objects, so chunks with nothing visible are left out.
  return chunks.filter((chunk) => chunk.trim() !== '');
}

function preferBreak(tokens: string[], start: number, end: number): number {
  if (end >= tokens.length) return end;
  for (let i = end - 1; i > start + (end - start) / 2; i--) {
    if (tokens[i] === '\n' || tokens[i] === ' ') return i + 1;
  }
  return end;
}

/** Already-escaped mrkdwn cut so that it plus "…" fits in `max` UTF-16 units, never inside an entity. */
export function truncateEscaped(escaped: string, max: number): string {
  return cutTokens(escaped.match(/&(?:amp|lt|gt);|[\s\S]/gu) ?? [], max);
}

/** A plain_text object (no escaping needed: Slack never parses mentions in plain_text). */
export function plain(text: string, max: number): PlainTextElement {
  return { type: 'plain_text', text: truncate(neutralise(text), max), emoji: true };
}

/** A mrkdwn object whose text the caller has already escaped and sized. */
export function mrkdwn(text: string): MrkdwnElement {
  return { type: 'mrkdwn', text };
}

/** A section block of mrkdwn text the caller has already escaped and sized. */
export function section(text: string): SectionBlock {
  return { type: 'section', text: mrkdwn(text) };
}

/** A context block of mrkdwn texts the caller has already escaped and sized. */
export function mrkdwnContext(...texts: string[]): ContextBlock {
  return { type: 'context', elements: texts.map(mrkdwn) };
}
