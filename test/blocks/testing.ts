// Test support: what Slack would put in view.state.values if a person filled a form modal with `content`, or
// submitted it untouched.
// Used by this folder's round-trip tests and by the Slack stand-in's end-to-end tests.
import type { Content } from '../../src/relay/types.js';
import { formatIssue, validateMessage, validateView } from '../../src/standin/blockkit.js';
import { option } from '../../blocks/elements.js';
import { uiText } from '../../blocks/i18n.js';
import { optionValue } from '../../blocks/ids.js';
import type { ModalView } from '../../blocks/modal.js';
import { optionLabels } from '../../blocks/option-labels.js';
import type { FieldSpec, FormSpec } from '../../blocks/spec.js';

type Raw = Record<string, unknown>;

/** `view.state.values` for `content` (absent keys are left empty), using the modal's own option objects. */
export function stateFor(
  spec: FormSpec,
  view: Pick<ModalView, 'blocks'>,
  content: Content,
): Record<string, Record<string, Raw>> {
  const values: Record<string, Record<string, Raw>> = {};
  for (const block of view.blocks as unknown as Raw[]) {
    const field = spec.fields.find((f) => f.blockId === block.block_id);
    if (block.type !== 'input' || !field) continue;
    const element = block.element as Raw;
    const answer = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    values[field.blockId] = {
      [field.actionId]: { type: element.type, ...slackValue(field, element, answer) },
    };
  }
  return values;
}

function slackValue(field: FieldSpec, element: Raw, answer: Content[string] | undefined): Raw {
  const options = flatOptions(field, element);
  switch (element.type) {
    case 'datepicker':
      return { selected_date: answer ?? null };
    case 'datetimepicker':
      return { selected_date_time: answer === undefined ? null : Date.parse(String(answer)) / 1000 };
    case 'radio_buttons':
    case 'static_select':
    case 'external_select':
      return {
        selected_option:
          answer === undefined || Array.isArray(answer) ? null : options[optionPosition(field, answer)],
      };
    case 'checkboxes':
    case 'multi_static_select':
    case 'multi_external_select': {
      const picked = Array.isArray(answer) ? answer : [];
      return { selected_options: picked.map((a) => options[optionPosition(field, a)]) };
    }
    default:
      return { value: answer === undefined ? null : String(answer) };
  }
}

/**
 * `view.state.values` for a modal submitted exactly as it was drawn (the person changed nothing): Slack sends an
 * untouched input's initial value back, so this is what a form redrawn from a draft (Back, Respond again) keeps.
 */
export function untouchedState(view: Pick<ModalView, 'blocks'>): Record<string, Record<string, Raw>> {
  const values: Record<string, Record<string, Raw>> = {};
  for (const block of view.blocks as unknown as Raw[]) {
    if (block.type !== 'input') continue;
    const element = block.element as Raw;
    values[String(block.block_id)] = {
      [String(element.action_id)]: { type: element.type, ...initialOf(element) },
    };
  }
  return values;
}

function initialOf(element: Raw): Raw {
  switch (element.type) {
    case 'datepicker':
      return { selected_date: element.initial_date ?? null };
    case 'datetimepicker':
      return { selected_date_time: element.initial_date_time ?? null };
    case 'radio_buttons':
    case 'static_select':
    case 'external_select':
      return { selected_option: element.initial_option ?? null };
    case 'checkboxes':
    case 'multi_static_select':
    case 'multi_external_select':
      return { selected_options: element.initial_options ?? [] };
    default:
      return { value: element.initial_value ?? null };
  }
}

// Options appear in the element in the schema's order (booleans: Yes, No).
function optionPosition(field: FieldSpec, answer: string | number | boolean): number {
  if (field.kind === 'boolean') return answer === true ? 0 : 1;
  return field.kind === 'single-select' || field.kind === 'multi-select'
    ? field.options.findIndex((o) => o.value === answer)
    : -1;
}

// An external select lists no options: Slack echoes the suggested option picked, which is the field's own.
function flatOptions(field: FieldSpec, element: Raw): unknown[] {
  if (element.type === 'external_select' || element.type === 'multi_external_select') {
    const all = field.kind === 'single-select' || field.kind === 'multi-select' ? field.options : [];
    return optionLabels(all, uiText()).map((label, i) => option(label, optionValue(i)));
  }
  if (Array.isArray(element.options)) return element.options as unknown[];
  const groups = Array.isArray(element.option_groups) ? (element.option_groups as Raw[]) : [];
  return groups.flatMap((g): unknown[] => (Array.isArray(g.options) ? (g.options as unknown[]) : []));
}

/**
 * Block Kit problems in a view (modal or Home tab) or a message (text and blocks), as the Slack stand-in's
 * validator (written from Slack's docs, independent of the builders) judges them. [] means Slack would accept it.
 */
export function slackIssues(rendered: unknown): string[] {
  const view = rendered as { type?: unknown };
  const isView = view.type === 'modal' || view.type === 'home';
  return (isView ? validateView(rendered) : validateMessage(rendered)).map(formatIssue);
}
