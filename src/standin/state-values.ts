// Builds `view.state.values` exactly as Slack sends it on view_submission, from a stored view and the
// answers a test gives per block_id. Also refuses what Slack's client would refuse to submit.
import { type Obj, isObj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import { DECIMAL_STRING, WHOLE_STRING, compareDecimals } from './decimal-strings.js';

/**
 * An answer for one input block: text inputs take the string; number_input a number or string;
 * radio/static_select the value or text of one option; checkboxes/multi_static_select values or texts
 * (a boolean for a one-option checkbox); datepicker `YYYY-MM-DD`; timepicker `HH:mm`;
 * datetimepicker Unix seconds; users/conversations/channels selects the id(s).
 */
export type FieldAnswer = string | number | boolean | string[];

type StateValues = Record<string, Record<string, Obj>>;
/** Options the app suggested for external selects (block_suggestion answers), by action_id. */
export type Suggested = Readonly<Record<string, readonly Obj[]>>;
type Shape = (el: Obj, answer: FieldAnswer | undefined, blockId: string, suggested: Suggested) => Obj;

function allOptions(el: Obj): Obj[] {
  if (Array.isArray(el.option_groups)) {
    return (el.option_groups as Obj[]).flatMap((g) => (Array.isArray(g.options) ? (g.options as Obj[]) : []));
  }
  return Array.isArray(el.options) ? (el.options as Obj[]).filter(isObj) : [];
}

/** Slack echoes options with `emoji: true` on plain_text texts. */
function echo(option: Obj): Obj {
  const text = isObj(option.text) ? option.text : {};
  return text.type === 'plain_text' && text.emoji === undefined
    ? { ...option, text: { ...text, emoji: true } }
    : option;
}

// An external select offers only what the app suggested for what the person typed (or its initial options).
function pick(el: Obj, answer: string, blockId: string, suggested: Suggested): Obj {
  const external = el.type === 'external_select' || el.type === 'multi_external_select';
  const initial: unknown[] = [
    el.initial_option,
    ...(Array.isArray(el.initial_options) ? (el.initial_options as unknown[]) : []),
  ];
  const choices = external
    ? [...(suggested[String(el.action_id)] ?? []), ...initial.filter(isObj)]
    : allOptions(el);
  const found = choices.find((o) => o.value === answer || (isObj(o.text) && o.text.text === answer));
  if (!found) {
    const why = external ? 'the app did not suggest' : 'has no option';
    throw new StandinError('option_not_found', `block ${blockId}: ${why} "${answer}"`);
  }
  return echo(found);
}

function many(el: Obj, answer: FieldAnswer | undefined): string[] {
  if (answer === undefined || answer === false) return [];
  if (answer === true) {
    const only = allOptions(el);
    return only.length === 1 && typeof only[0]?.value === 'string' ? [only[0].value] : ['true'];
  }
  return Array.isArray(answer) ? answer : [String(answer)];
}

const one = (a: FieldAnswer | undefined): string | null => (a === undefined || a === '' ? null : String(a));

const clientError = (blockId: string, why: string): StandinError =>
  new StandinError('client_validation', `Slack's client would not submit block ${blockId}: ${why}`);

const textValue: Shape = (el, a, blockId) => {
  const value = one(a);
  const len = value === null ? 0 : [...value].length;
  if (value !== null && typeof el.min_length === 'number' && len < el.min_length) {
    throw clientError(blockId, `shorter than min_length ${el.min_length}`);
  }
  if (typeof el.max_length === 'number' && len > el.max_length) {
    throw clientError(blockId, `longer than max_length ${el.max_length}`);
  }
  return { value };
};

/**
 * What a person can type into a number_input: a plain decimal ("-10", "5.5"), whole unless decimals are allowed,
 * within its bounds compared as written (a float would let "0.30000000000000001" past a max_value of "0.3").
 */
const numberValue: Shape = (el, a, blockId) => {
  const value = one(a);
  if (value === null) return { value };
  if (!DECIMAL_STRING.test(value)) throw clientError(blockId, 'not a number');
  if (el.is_decimal_allowed !== true && !WHOLE_STRING.test(value))
    throw clientError(blockId, 'decimals not allowed');
  const below = typeof el.min_value === 'string' && compareDecimals(value, el.min_value) < 0;
  if (below) throw clientError(blockId, 'below min_value');
  const above = typeof el.max_value === 'string' && compareDecimals(value, el.max_value) > 0;
  if (above) throw clientError(blockId, 'above max_value');
  return { value };
};

const selected: Shape = (el, a, blockId, suggested) => {
  const value = one(a);
  return { selected_option: value === null ? null : pick(el, value, blockId, suggested) };
};

const selectedMany: Shape = (el, a, blockId, suggested) => {
  const values = many(el, a);
  if (typeof el.max_selected_items === 'number' && values.length > el.max_selected_items) {
    throw clientError(blockId, `more than max_selected_items ${el.max_selected_items}`);
  }
  return { selected_options: values.map((v) => pick(el, v, blockId, suggested)) };
};

const ids =
  (key: string): Shape =>
  (_el, a) => ({ [key]: Array.isArray(a) ? a : a === undefined ? [] : [String(a)] });

const SHAPES: Record<string, Shape> = {
  plain_text_input: textValue,
  email_text_input: textValue,
  url_text_input: textValue,
  number_input: numberValue,
  datepicker: (_el, a) => ({ selected_date: one(a) }),
  timepicker: (el, a) => ({ selected_time: one(a), ...(el.timezone ? { timezone: el.timezone } : {}) }),
  datetimepicker: (_el, a) => ({ selected_date_time: a === undefined || a === '' ? null : Number(a) }),
  radio_buttons: selected,
  static_select: selected,
  external_select: selected,
  checkboxes: selectedMany,
  multi_static_select: selectedMany,
  multi_external_select: selectedMany,
  users_select: (_el, a) => ({ selected_user: one(a) }),
  conversations_select: (_el, a) => ({ selected_conversation: one(a) }),
  channels_select: (_el, a) => ({ selected_channel: one(a) }),
  multi_users_select: ids('selected_users'),
  multi_conversations_select: ids('selected_conversations'),
  multi_channels_select: ids('selected_channels'),
  rich_text_input: (_el, a) => ({ rich_text_value: richText(one(a)) }),
  file_input: () => ({ files: [] }),
};

function richText(text: string | null): Obj {
  const sections = text === null ? [] : [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }];
  return { type: 'rich_text', elements: sections };
}

const isEmpty = (a: FieldAnswer | undefined): boolean =>
  a === undefined || a === '' || a === false || (Array.isArray(a) && a.length === 0);

/**
 * `state.values` for every input block of `view`; throws StandinError for answers Slack could not send. A
 * click in the view (`submitting` false) sends the state as it is: Slack checks required fields only on submit.
 */
export function buildStateValues(
  view: Obj,
  answers: Record<string, FieldAnswer | undefined>,
  suggested: Suggested = {},
  submitting = true,
): StateValues {
  const inputs = (Array.isArray(view.blocks) ? (view.blocks as unknown[]) : []).filter(
    (b): b is Obj => isObj(b) && b.type === 'input' && isObj(b.element),
  );
  const known = new Set(inputs.map((b) => b.block_id));
  const stray = Object.keys(answers).find((k) => !known.has(k));
  if (stray !== undefined) throw new StandinError('unknown_block', `the view has no input block ${stray}`);
  const values: StateValues = {};
  for (const block of inputs) {
    const blockId = String(block.block_id);
    const el = block.element as Obj;
    const answer = answers[blockId];
    if (submitting && block.optional !== true && isEmpty(answer))
      throw clientError(blockId, 'required field left empty');
    const shape = SHAPES[String(el.type)];
    if (!shape) throw new StandinError('unsupported_element', `no state shape for ${String(el.type)}`);
    values[blockId] = { [String(el.action_id)]: { type: el.type, ...shape(el, answer, blockId, suggested) } };
  }
  return values;
}
