// External selects in the stand-in: where one sits in a view, and the app's answer to block_suggestion
// checked as Slack checks it (at most 100 options or option groups; option text ≤ 75, value ≤ 150).
import { OPTION_TEXT_MAX, OPTION_VALUE_MAX, SUGGESTION_OPTIONS_MAX } from '../../blocks/slack-limits.js';
import { type Obj, isObj } from './blockkit-check.js';
import { StandinError } from './calls.js';

const EXTERNAL = new Set(['external_select', 'multi_external_select']);

/** The external select with `actionId` in a view's blocks (input, section accessory or actions). */
export function findExternalSelect(view: Obj, actionId: string): { blockId: string; element: Obj } {
  for (const block of Array.isArray(view.blocks) ? (view.blocks as unknown[]) : []) {
    if (!isObj(block)) continue;
    const actions = Array.isArray(block.elements) ? (block.elements as unknown[]) : [];
    const element = [block.element, block.accessory, ...actions].find(
      (e): e is Obj => isObj(e) && e.action_id === actionId,
    );
    if (element && EXTERNAL.has(String(element.type))) return { blockId: String(block.block_id), element };
  }
  throw new StandinError('select_not_found', `the view has no external select ${actionId}`);
}

const validOption = (o: unknown): o is Obj =>
  isObj(o) &&
  isObj(o.text) &&
  o.text.type === 'plain_text' &&
  typeof o.text.text === 'string' &&
  [...o.text.text].length <= OPTION_TEXT_MAX &&
  typeof o.value === 'string' &&
  o.value.length <= OPTION_VALUE_MAX;

/** The options in the app's block_suggestion answer (`options`, or `option_groups` flattened). */
export function suggestedOptions(ack: unknown): Obj[] {
  const groups =
    isObj(ack) && Array.isArray(ack.option_groups) ? (ack.option_groups as unknown[]) : undefined;
  const list = groups ?? (isObj(ack) && Array.isArray(ack.options) ? (ack.options as unknown[]) : undefined);
  if (!list)
    throw new StandinError('invalid_suggestions', 'the app answered without options or option_groups');
  if (list.length > SUGGESTION_OPTIONS_MAX) {
    throw new StandinError(
      'invalid_suggestions',
      `${list.length} options: at most ${SUGGESTION_OPTIONS_MAX}`,
    );
  }
  const options = groups
    ? groups.flatMap((g) => (isObj(g) && Array.isArray(g.options) ? (g.options as unknown[]) : [null]))
    : list;
  const bad = options.findIndex((o) => !validOption(o));
  if (bad >= 0) throw new StandinError('invalid_suggestions', `option ${bad} is not a valid option object`);
  return options as Obj[];
}
