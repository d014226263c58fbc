// An answer as people read it: one "*Label*: value" line per answered field, in form order, with options by
// their titles and yes/no in the person's language. Used on the answered card and on the review step.
import type { Content } from '../src/relay/types.js';
import { uiText, type Locale } from './i18n.js';
import { optionLabels } from './option-labels.js';
import type { FieldSpec, FormSpec } from './spec.js';
import { escapeMrkdwn, truncate } from './text.js';

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
