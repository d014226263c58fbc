// What each option of a select shows: its title, else its value, told apart from every other option's.
//
// An untitled option shows its value trimmed (options.ts), neutralised (zero-width and bidi characters removed,
// text.ts) and cut to Slack's 75 characters, so values a server tells apart only by surrounding spaces, invisible
// characters or what follows the 75th character would look the same, and the person could not know which value
// they send. Where shown labels collide, each colliding option whose label is its value shows the value as it
// is instead: edge spaces as "␠", characters nothing would show as "[U+200B]", and a value too long for an option
// as its start and its end around "…" (values sharing a long start most often differ at the end). Whatever still
// collides (two titles the same, values that differ only in the middle) gets its position in the list, "(2)":
// always distinct, and a number needs no translation. Labels that do not collide are left as they were.
import { OPTION_TEXT_MAX } from './slack-limits.js';
import type { UiText } from './i18n.js';
import type { SelectOption } from './spec.js';
import { neutralise, truncate, withoutControls } from './text.js';

const ELLIPSIS = '…';
/** U+2420 SYMBOL FOR SPACE: a space at either end, which shows as nothing. */
const SHOWN_SPACE = '\u2420';

/** The label of each of `options`, in order (a label the person can see: see SelectOption), all distinct. */
export function optionLabels(options: readonly SelectOption[], t: UiText): string[] {
  const labels = options.map((o, i) => o.label ?? t.optionFallback(i + 1));
  const clashing = new Set(clashes(labels));
  const revealed = labels.map((label, i) => {
    const option = options[i];
    return clashing.has(i) && option !== undefined && label === option.value.trim()
      ? revealValue(option.value)
      : label;
  });
  return numberClashes(revealed);
}

/** What Slack shows of `label` as an option's text: neutralised, cut to 75, its edge spaces invisible. */
function look(label: string): string {
  return truncate(neutralise(label), OPTION_TEXT_MAX).trim();
}

/** Indexes of the labels that look like another one. */
function clashes(labels: string[]): number[] {
  const looks = labels.map(look);
  const counts = new Map<string, number>();
  for (const shown of looks) counts.set(shown, (counts.get(shown) ?? 0) + 1);
  return looks.flatMap((shown, i) => ((counts.get(shown) ?? 0) > 1 ? [i] : []));
}

/**
 * Appends " (position)" to each label that still looks like another until none does. Two numbered labels never
 * look alike (they end in different numbers, which the cut keeps); a numbered one may look like an unnumbered
 * one, which is numbered in the next pass, so this ends within one pass per option.
 */
function numberClashes(labels: string[]): string[] {
  const out = [...labels];
  const numbered = new Set<number>();
  for (;;) {
    const next = clashes(out).filter((i) => !numbered.has(i));
    if (next.length === 0) return out;
    for (const i of next) {
      const suffix = ` (${i + 1})`;
      out[i] = truncate(neutralise(out[i] ?? '').trim(), OPTION_TEXT_MAX - suffix.length) + suffix;
      numbered.add(i);
    }
  }
}

/** `value` with nothing hidden (see the top of this file), at most 75 UTF-16 units. */
function revealValue(value: string): string {
  const chars = Array.from(value);
  const first = chars.findIndex((ch) => !/\s/.test(ch));
  const last = chars.findLastIndex((ch) => !/\s/.test(ch));
  const shown = chars.map((ch, i) => {
    const edge = first === -1 || i < first || i > last;
    if (edge && ch === ' ') return SHOWN_SPACE;
    const hidden = edge || neutralise(ch) !== ch || withoutControls(ch) !== ch;
    return hidden ? `[U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]` : ch;
  });
  return middleCut(shown, OPTION_TEXT_MAX);
}

/** `pieces` joined, or when longer than `max` UTF-16 units its start and end around "…", never splitting a piece. */
function middleCut(pieces: string[], max: number): string {
  const whole = pieces.join('');
  if (whole.length <= max) return whole;
  const room = max - ELLIPSIS.length;
  let head = '';
  for (const piece of pieces) {
    if (head.length + piece.length > Math.floor(room / 2)) break;
    head += piece;
  }
  let tail = '';
  for (const piece of [...pieces].reverse()) {
    if (head.length + tail.length + piece.length > room) break;
    tail = piece + tail;
  }
  return head + ELLIPSIS + tail;
}
