// An answer as people read it: one "*Label*: value" line per answered field, in form order, with options by
// their titles and yes/no in the person's language. Used on the answered card and on the review step.
import type { SectionBlock } from '@slack/types';
import type { Content } from '../src/relay/types.js';
import { uiText, type Locale } from './i18n.js';
import { optionLabels } from './option-labels.js';
import { SECTION_TEXT_MAX } from './slack-limits.js';
import type { FieldSpec, FormSpec } from './spec.js';
import { escapeMrkdwn, section, truncate, truncateEscaped } from './text.js';

/** Lines listed before "and N more". */
export const SUMMARY_LINES_MAX = 20;
const LABEL_MAX = 80;
const VALUE_MAX = 300;
/** What a field that looks like a secret shows instead of its value. */
const MASK = '••••••';

/** The answered fields of `content` as mrkdwn lines (escaped), at most SUMMARY_LINES_MAX plus a count. */
export function answerLines(spec: FormSpec, content: Content, locale?: Locale): string[] {
  const answered = spec.fields.filter((f) => Object.hasOwn(content, f.name));
  const lines = answered.slice(0, SUMMARY_LINES_MAX).map((field) => {
    const value = content[field.name];
    const shown = field.secret === true ? MASK : valueText(field, value, locale);
    const label = escapeMrkdwn(truncate(field.label, LABEL_MAX));
    return `*${label}*: ${escapeMrkdwn(truncate(shown, VALUE_MAX))}`;
  });
  const more = answered.length - lines.length;
  return more > 0 ? [...lines, uiText(locale).andMore(more)] : lines;
}

/**
 * `lines` (answerLines) as sections of whole lines, each within a section's 3000 characters: one section cut at
 * 3000 showed ~10 answers of 300 characters and left the rest of a 20-line answer out, on the review a person
 * sends from and on the card everyone reads. A line is at most ~1900 units (a label of 80 and a value of 300, each
 * unit escaped to at most 5), so each fits whole, and 21 lines take at most 21 sections.
 */
export function answerSections(lines: readonly string[]): SectionBlock[] {
  const texts: string[] = [];
  for (const whole of lines) {
    const line = whole.length <= SECTION_TEXT_MAX ? whole : truncateEscaped(whole, SECTION_TEXT_MAX);
    const last = texts.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= SECTION_TEXT_MAX)
      texts[texts.length - 1] = `${last}\n${line}`;
    else texts.push(line);
  }
  return texts.map(section);
}

function valueText(field: FieldSpec, value: Content[string] | undefined, locale?: Locale): string {
  const t = uiText(locale);
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  // The option's label exactly as the form showed it, told apart from its look-alikes (option-labels.ts).
  const labels = 'options' in field ? optionLabels(field.options, t) : [];
  const title = (v: string): string => {
    if (!('options' in field)) return v;
    return labels[field.options.findIndex((o) => o.value === v)] ?? v;
  };
  if (Array.isArray(value)) return value.map(title).join(', ');
  return value === undefined ? '' : title(String(value));
}
