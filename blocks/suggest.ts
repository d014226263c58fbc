// Suggestions for an external select (a field with more than 100 options): what the bot answers to Slack's
// block_suggestion as the person types. Pure: the form's spec and the typed text in, option objects out.
import { SUGGESTION_OPTIONS_MAX } from './slack-limits.js';
import type { PlainTextOption } from '@slack/types';
import { option } from './elements.js';
import { uiText, type Locale } from './i18n.js';
import { optionValue } from './ids.js';
import { optionLabels } from './option-labels.js';
import type { FormSpec } from './spec.js';

/**
 * The options of the field whose action_id is `actionId` whose label as shown (or value) contains `query`,
 * ignoring case, in the schema's order, at most 100; none for an unknown field or one without options.
 * Values are the option's position (as in static selects), so a submission reads back the same way.
 * `locale` is the language of the placeholder an option without a visible label shows (English when absent).
 */
export function suggestOptions(
  spec: FormSpec,
  actionId: string,
  query: string,
  locale?: Locale,
): PlainTextOption[] {
  const field = spec.fields.find((f) => f.actionId === actionId);
  if (field?.kind !== 'single-select' && field?.kind !== 'multi-select') return [];
  const t = uiText(locale);
  const needle = query.trim().toLocaleLowerCase();
  const labels = optionLabels(field.options, t);
  return field.options
    .map((o, i) => ({ shown: labels[i] ?? o.value, value: o.value, i }))
    .filter(
      ({ shown, value }) =>
        shown.toLocaleLowerCase().includes(needle) || value.toLocaleLowerCase().includes(needle),
    )
    .slice(0, SUGGESTION_OPTIONS_MAX)
    .map(({ shown, i }) => option(shown, optionValue(i)));
}
