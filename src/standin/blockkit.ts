// The stand-in's own Block Kit validator, written from Slack's documented limits and independent of the
// bot's builders so it catches their bugs. Returns Slack-worded issues; an empty list means "Slack accepts it".
import { type BlockKitIssue, Checker, type Obj, formatIssue } from './blockkit-check.js';
import {
  ACCESSORY_ELEMENTS,
  ACTIONS_ELEMENTS,
  INPUT_ELEMENTS,
  checkContextElement,
  checkElement,
} from './blockkit-elements.js';

export { type BlockKitIssue, formatIssue };

/** Where blocks are shown: input blocks are only allowed on view surfaces. */
type Surface = 'message' | 'modal' | 'home';

/** Documented block counts: messages 50, modals and Home tabs 100. */
const MAX_BLOCKS: Record<Surface, number> = { message: 50, modal: 100, home: 100 };

type BlockCheck = (c: Checker, block: Obj, ptr: string, surface: Surface) => void;

const BLOCKS: Record<string, BlockCheck> = {
  section: (c, b, ptr) => {
    if (b.text === undefined && b.fields === undefined) c.fail(ptr, 'missing required field: text');
    c.text(b, 'text', ptr, { max: 3000 });
    c.list(b, 'fields', ptr, { max: 10, min: 1 }).forEach((f, i) =>
      c.textObject(f, `${ptr}/fields/${i}`, { max: 2000 }),
    );
    if (b.accessory !== undefined) checkElement(c, b.accessory, `${ptr}/accessory`, ACCESSORY_ELEMENTS);
  },
  header: (c, b, ptr) => c.text(b, 'text', ptr, { max: 150, plain: true, required: true }),
  divider: () => undefined,
  image: (c, b, ptr) => {
    if (b.slack_file === undefined) c.str(b, 'image_url', ptr, 3000, true);
    c.str(b, 'alt_text', ptr, 2000, true);
    c.text(b, 'title', ptr, { max: 2000, plain: true });
  },
  context: (c, b, ptr) => {
    const elements = c.list(b, 'elements', ptr, { max: 10, min: 1, required: true });
    elements.forEach((e, i) => checkContextElement(c, e, `${ptr}/elements/${i}`));
  },
  actions: (c, b, ptr) => {
    const elements = c.list(b, 'elements', ptr, { max: 25, min: 1, required: true });
    elements.forEach((e, i) => checkElement(c, e, `${ptr}/elements/${i}`, ACTIONS_ELEMENTS));
    uniqueActionIds(c, elements, ptr);
  },
  input: (c, b, ptr, surface) => {
    if (surface === 'message')
      return c.fail(`${ptr}/type`, 'input blocks are only allowed in modals and Home tabs');
    c.text(b, 'label', ptr, { max: 2000, plain: true, required: true });
    c.text(b, 'hint', ptr, { max: 2000, plain: true });
    c.bool(b, 'optional', ptr);
    c.bool(b, 'dispatch_action', ptr);
    if (b.element === undefined) return c.fail(ptr, 'missing required field: element');
    checkElement(c, b.element, `${ptr}/element`, INPUT_ELEMENTS);
  },
  rich_text: (c, b, ptr) => void c.list(b, 'elements', ptr, { max: Infinity, required: true }),
  markdown: (c, b, ptr, surface) => {
    if (surface !== 'message') return c.fail(`${ptr}/type`, 'markdown blocks are only allowed in messages');
    c.str(b, 'text', ptr, 12000, true);
  },
};

function uniqueActionIds(c: Checker, elements: unknown[], ptr: string): void {
  const seen = new Set<unknown>();
  elements.forEach((e, i) => {
    const id = (e as Obj | null)?.action_id;
    if (typeof id !== 'string') return;
    if (seen.has(id)) c.fail(`${ptr}/elements/${i}/action_id`, `duplicate action_id: ${id}`);
    seen.add(id);
  });
}

function checkBlocks(c: Checker, blocks: unknown, ptr: string, surface: Surface): void {
  if (!Array.isArray(blocks)) return c.fail(ptr, 'must be an array');
  if (blocks.length > MAX_BLOCKS[surface]) c.fail(ptr, `must be less than ${MAX_BLOCKS[surface] + 1} items`);
  const ids = new Set<unknown>();
  (blocks as unknown[]).forEach((value, i) => {
    const bp = `${ptr}/${i}`;
    const block = c.obj(value, bp);
    if (!block) return;
    c.str(block, 'block_id', bp, 255);
    if (typeof block.block_id === 'string') {
      if (ids.has(block.block_id)) c.fail(`${bp}/block_id`, `duplicate block_id: ${block.block_id}`);
      ids.add(block.block_id);
    }
    const check = typeof block.type === 'string' ? BLOCKS[block.type] : undefined;
    if (!check) return c.fail(`${bp}/type`, `unsupported type: ${String(block.type)}`);
    check(c, block, bp, surface);
  });
  focusOnce(c, blocks as unknown[], ptr);
}

function focusOnce(c: Checker, blocks: unknown[], ptr: string): void {
  const focused = blocks.filter(
    (b) => ((b as Obj | null)?.element as Obj | undefined)?.focus_on_load === true,
  );
  if (focused.length > 1) c.fail(ptr, 'only one element may set focus_on_load');
}

/** Validates message `blocks` (chat.postMessage / chat.update / response_url); undefined is accepted. */
export function validateMessageBlocks(blocks: unknown): BlockKitIssue[] {
  const c = new Checker();
  if (blocks !== undefined) checkBlocks(c, blocks, '/blocks', 'message');
  return c.issues;
}

/** Validates a modal or Home tab view as views.open / push / update / publish receive it. */
export function validateView(view: unknown, ptr = '/view'): BlockKitIssue[] {
  const c = new Checker();
  const v = c.obj(view, ptr);
  if (!v) return c.issues;
  if (v.type !== 'modal' && v.type !== 'home') {
    c.fail(`${ptr}/type`, `unsupported type: ${String(v.type)}`);
    return c.issues;
  }
  if (v.type === 'modal') modalFields(c, v, ptr);
  c.str(v, 'private_metadata', ptr, 3000);
  c.str(v, 'callback_id', ptr, 255);
  c.str(v, 'external_id', ptr, 255);
  if (v.blocks === undefined) c.fail(ptr, 'missing required field: blocks');
  else checkBlocks(c, v.blocks, `${ptr}/blocks`, v.type);
  return c.issues;
}

function modalFields(c: Checker, v: Obj, ptr: string): void {
  c.text(v, 'title', ptr, { max: 24, plain: true, required: true });
  c.text(v, 'submit', ptr, { max: 24, plain: true });
  c.text(v, 'close', ptr, { max: 24, plain: true });
  c.bool(v, 'notify_on_close', ptr);
  c.bool(v, 'clear_on_close', ptr);
  const hasInput =
    Array.isArray(v.blocks) && (v.blocks as unknown[]).some((b) => (b as Obj | null)?.type === 'input');
  if (hasInput && v.submit === undefined) {
    c.fail(ptr, 'missing required field: submit (a view with input blocks must have a submit button)');
  }
}
