// FieldSpec → the Block Kit input element a Slack user expects for it, with its default pre-filled.
// Rules: text is multiline when maxLength > 150; selects with ≤ 5 options are radio buttons / checkboxes,
// more use (multi_)static_select, and more than 100 (Slack's limit for a static select) an external select:
// the person types, and the bot suggests matching options through block_suggestion (suggest.ts).
import { OPTION_TEXT_MAX, PLACEHOLDER_MAX, SELECT_OPTIONS_MAX, TEXT_INPUT_MAX } from './slack-limits.js';
import type {
  Checkboxes,
  Datepicker,
  DateTimepicker,
  EmailInput,
  ExternalSelect,
  InputBlockElement,
  MultiExternalSelect,
  MultiStaticSelect,
  NumberInput,
  PlainTextInput,
  PlainTextOption,
  RadioButtons,
  StaticSelect,
  URLInput,
} from '@slack/types';
import { uiText, type Locale, type UiText } from './i18n.js';
import { optionValue } from './ids.js';
import { dateTimeSeconds, plainDecimal } from './initial-values.js';
import { optionLabels } from './option-labels.js';
import type {
  FieldSpec,
  MultiSelectField,
  NumberField,
  SelectOption,
  SingleSelectField,
  TextField,
} from './spec.js';
import { plain } from './text.js';

/** Above this maxLength a text field gets a multi-line box. */
export const MULTILINE_ABOVE = 150;
/** Up to this many options show as radio buttons / checkboxes (Slack allows 10; 5 keeps modals short). */
export const INLINE_OPTIONS_MAX = 5;
/** Characters a person types before the bot is asked for suggestions. */
const MIN_QUERY_LENGTH = 1;

export const YES = 'yes';
export const NO = 'no';

/** The element of one field; `locale` picks the language of Yes/No, placeholders and group labels. */
export function fieldElement(field: FieldSpec, locale?: Locale): InputBlockElement {
  const t = uiText(locale);
  switch (field.kind) {
    case 'text':
      return textElement(field);
    case 'number':
    case 'integer':
      return numberElement(field);
    case 'boolean':
      return booleanElement(field.actionId, field.default, t);
    case 'single-select':
      return singleElement(field, t);
    case 'multi-select':
      return multiElement(field, t);
  }
}

type TextInputElement = EmailInput | URLInput | Datepicker | DateTimepicker | PlainTextInput;

function textElement(field: TextField): TextInputElement {
  const initial =
    field.default !== undefined && field.default.length <= TEXT_INPUT_MAX ? field.default : undefined;
  const base = { action_id: field.actionId };
  switch (field.format) {
    case 'email':
      return { type: 'email_text_input', ...base, ...(initial !== undefined && { initial_value: initial }) };
    case 'uri':
      return { type: 'url_text_input', ...base, ...(initial !== undefined && { initial_value: initial }) };
    case 'date':
      return { type: 'datepicker', ...base, ...(initial !== undefined && { initial_date: initial }) };
    case 'date-time': {
      const seconds = initial === undefined ? undefined : dateTimeSeconds(initial);
      return {
        type: 'datetimepicker',
        ...base,
        ...(seconds !== undefined && { initial_date_time: seconds }),
      };
    }
    case undefined:
      return plainTextElement(field, initial);
  }
}

function plainTextElement(field: TextField, initial: string | undefined): PlainTextInput {
  const { minLength, maxLength } = field;
  const element: PlainTextInput = { type: 'plain_text_input', action_id: field.actionId };
  if (maxLength !== undefined && maxLength > MULTILINE_ABOVE) element.multiline = true;
  // Out-of-range bounds are left to validation on submit; Slack rejects a view that carries them.
  if (minLength !== undefined && minLength > 0 && minLength <= TEXT_INPUT_MAX) element.min_length = minLength;
  if (maxLength !== undefined && maxLength >= 1 && maxLength <= TEXT_INPUT_MAX)
    element.max_length = maxLength;
  if (initial !== undefined && initial !== '') element.initial_value = initial;
  return element;
}

function numberElement(field: NumberField): NumberInput {
  const element: NumberInput = {
    type: 'number_input',
    action_id: field.actionId,
    is_decimal_allowed: field.kind === 'number',
  };
  // Slack wants plain decimal strings: 1e-7 is written "0.0000001", so a default or an answer drawn again shows.
  const text = (n: number | undefined) => (n === undefined ? undefined : plainDecimal(n));
  const [low, high] = integerBounds(field);
  const [min, max, initial] = [text(low), text(high), text(field.default)];
  if (min !== undefined) element.min_value = min;
  if (max !== undefined) element.max_value = max;
  if (initial !== undefined) element.initial_value = initial;
  return element;
}

/**
 * The bounds Slack is given: an integer field's fractional bounds become the integers they allow (minimum 0.5 is
 * 1), as Slack's number input takes no decimal bounds without decimals allowed; bounds that allow no integer at
 * all are left to validation on submit, as out-of-range lengths are.
 */
function integerBounds(field: NumberField): [number | undefined, number | undefined] {
  if (field.kind === 'number') return [field.minimum, field.maximum];
  const min = field.minimum === undefined ? undefined : Math.ceil(field.minimum);
  const max = field.maximum === undefined ? undefined : Math.floor(field.maximum);
  return min !== undefined && max !== undefined && min > max ? [undefined, undefined] : [min, max];
}

function booleanElement(actionId: string, initial: boolean | undefined, t: UiText): RadioButtons {
  const options = [option(t.yes, YES), option(t.no, NO)];
  const chosen = initial === undefined ? undefined : options[initial ? 0 : 1];
  return { type: 'radio_buttons', action_id: actionId, options, ...(chosen && { initial_option: chosen }) };
}

function singleElement(field: SingleSelectField, t: UiText): RadioButtons | ExternalSelect | StaticSelect {
  const options = optionLabels(field.options, t).map((label, i) => option(label, optionValue(i)));
  const chosen = field.default === undefined ? undefined : options[indexOf(field.options, field.default)];
  const initial = chosen && { initial_option: chosen };
  if (options.length <= INLINE_OPTIONS_MAX) {
    return { type: 'radio_buttons', action_id: field.actionId, options, ...initial };
  }
  if (options.length > SELECT_OPTIONS_MAX) {
    return {
      type: 'external_select',
      action_id: field.actionId,
      placeholder: plain(t.typeToSearch, PLACEHOLDER_MAX),
      min_query_length: MIN_QUERY_LENGTH,
      ...initial,
    };
  }
  return {
    type: 'static_select',
    action_id: field.actionId,
    placeholder: plain(t.chooseOption, PLACEHOLDER_MAX),
    options,
    ...initial,
  };
}

function multiElement(
  field: MultiSelectField,
  t: UiText,
): Checkboxes | MultiExternalSelect | MultiStaticSelect {
  const options = optionLabels(field.options, t).map((label, i) => option(label, optionValue(i)));
  const chosen = (field.default ?? []).flatMap((v) => options[indexOf(field.options, v)] ?? []);
  const initial = chosen.length > 0 && { initial_options: chosen };
  if (options.length <= INLINE_OPTIONS_MAX) {
    return { type: 'checkboxes', action_id: field.actionId, options, ...initial };
  }
  const element: MultiExternalSelect | MultiStaticSelect =
    options.length > SELECT_OPTIONS_MAX
      ? {
          type: 'multi_external_select',
          action_id: field.actionId,
          placeholder: plain(t.typeToSearch, PLACEHOLDER_MAX),
          min_query_length: MIN_QUERY_LENGTH,
          ...initial,
        }
      : {
          type: 'multi_static_select',
          action_id: field.actionId,
          placeholder: plain(t.chooseOptions, PLACEHOLDER_MAX),
          options,
          ...initial,
        };
  if (field.maxItems !== undefined && field.maxItems >= 1) element.max_selected_items = field.maxItems;
  return element;
}

/** An option object: the label as text (cut to Slack's 75 characters), `value` as its value. */
export function option(label: string, value: string): PlainTextOption {
  return { text: plain(label, OPTION_TEXT_MAX), value };
}

function indexOf(options: SelectOption[], value: string): number {
  return options.findIndex((o) => o.value === value);
}
