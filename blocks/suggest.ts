// Suggestions for an external select (a field with more than 100 options): what the bot answers to Slack's
// block_suggestion as the person types. Pure: the form's spec and the typed text in, option objects out.
import { SUGGESTION_OPTIONS_MAX } from './slack-limits.js';
import type { PlainTextOption } from '@slack/types';
import { option } from './elements.js';
import { optionValue } from './ids.js';
import type { FormSpec } from './spec.js';

/**
 * The options of the field whose action_id is `actionId` whose label (or value) contains `query`, ignoring
 * case, in the schema's order, at most 100; none for an unknown field or one without options.
 * Values are the option's position (as in static selects), so a submission reads back the same way.
 */
export function suggestOptions(spec: FormSpec, actionId: string, query: string): PlainTextOption[] {
  const field = spec.fields.find((f) => f.actionId === actionId);
  if (field?.kind !== 'single-select' && field?.kind !== 'multi-select') return [];
  const needle = query.trim().toLocaleLowerCase();
  return field.options
    .map((o, i) => ({ o, i }))
    .filter(
      ({ o }) => o.label.toLocaleLowerCase().includes(needle) || o.value.toLocaleLowerCase().includes(needle),
    )
    .slice(0, SUGGESTION_OPTIONS_MAX)
    .map(({ o, i }) => option(o.label, optionValue(i)));
}
