// The stand-in's own Block Kit validator, written from Slack's documented limits and independent of the
// bot's builders so it catches their bugs. Returns Slack-worded issues; an empty list means "Slack accepts it".
import {
  ACTIONS_ELEMENTS_MAX,
  CONTEXT_ELEMENTS_MAX,
  HEADER_TEXT_MAX,
  ID_MAX,
  IMAGE_ALT_TEXT_MAX,
  IMAGE_URL_MAX,
  INPUT_HINT_MAX,
  INPUT_LABEL_MAX,
  MARKDOWN_TEXT_MAX,
  MESSAGE_BLOCKS_MAX,
  MESSAGE_TEXT_MAX,
  PRIVATE_METADATA_MAX,
  SECTION_FIELDS_MAX,
  SECTION_FIELD_TEXT_MAX,
  SECTION_TEXT_MAX,
  VIEW_BLOCKS_MAX,
  VIEW_TITLE_MAX,
} from '../../blocks/slack-limits.js';
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
const MAX_BLOCKS: Record<Surface, number> = {
  message: MESSAGE_BLOCKS_MAX,
  modal: VIEW_BLOCKS_MAX,
  home: VIEW_BLOCKS_MAX,
};

type BlockCheck = (c: Checker, block: Obj, ptr: string, surface: Surface) => void;

const BLOCKS: Record<string, BlockCheck> = {
  section: (c, b, ptr) => {
    if (b.text === undefined && b.fields === undefined) c.fail(ptr, 'missing required field: text');
    c.text(b, 'text', ptr, { max: SECTION_TEXT_MAX });
    c.list(b, 'fields', ptr, { max: SECTION_FIELDS_MAX, min: 1 }).forEach((f, i) =>
      c.textObject(f, `${ptr}/fields/${i}`, { max: SECTION_FIELD_TEXT_MAX }),
    );
    if (b.accessory !== undefined) checkElement(c, b.accessory, `${ptr}/accessory`, ACCESSORY_ELEMENTS);
  },
  header: (c, b, ptr) => c.text(b, 'text', ptr, { max: HEADER_TEXT_MAX, plain: true, required: true }),
  divider: () => undefined,
  image: (c, b, ptr) => {
    if (b.slack_file === undefined) c.str(b, 'image_url', ptr, IMAGE_URL_MAX, true);
    c.str(b, 'alt_text', ptr, IMAGE_ALT_TEXT_MAX, true);
    c.text(b, 'title', ptr, { max: IMAGE_ALT_TEXT_MAX, plain: true });
  },
  context: (c, b, ptr) => {
    const elements = c.list(b, 'elements', ptr, { max: CONTEXT_ELEMENTS_MAX, min: 1, required: true });
    elements.forEach((e, i) => checkContextElement(c, e, `${ptr}/elements/${i}`));
  },
  actions: (c, b, ptr) => {
    const elements = c.list(b, 'elements', ptr, { max: ACTIONS_ELEMENTS_MAX, min: 1, required: true });
    elements.forEach((e, i) => checkElement(c, e, `${ptr}/elements/${i}`, ACTIONS_ELEMENTS));
    uniqueActionIds(c, elements, ptr);
  },
  input: (c, b, ptr, surface) => {
    if (surface === 'message')
      return c.fail(`${ptr}/type`, 'input blocks are only allowed in modals and Home tabs');
    c.text(b, 'label', ptr, { max: INPUT_LABEL_MAX, plain: true, required: true });
    c.text(b, 'hint', ptr, { max: INPUT_HINT_MAX, plain: true });
    c.bool(b, 'optional', ptr);
    c.bool(b, 'dispatch_action', ptr);
    if (b.element === undefined) return c.fail(ptr, 'missing required field: element');
    checkElement(c, b.element, `${ptr}/element`, INPUT_ELEMENTS);
  },
  rich_text: (c, b, ptr) => void c.list(b, 'elements', ptr, { max: Infinity, required: true }),
  markdown: (c, b, ptr, surface) => {
    if (surface !== 'message') return c.fail(`${ptr}/type`, 'markdown blocks are only allowed in messages');
    c.str(b, 'text', ptr, MARKDOWN_TEXT_MAX, true);
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
    c.str(block, 'block_id', bp, ID_MAX);
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

/** Validates a whole message: `text` (required here: the bot always sends one; at most 40,000 characters) and `blocks`. */
export function validateMessage(message: unknown, ptr = ''): BlockKitIssue[] {
  const c = new Checker();
  const m = c.obj(message, ptr || '/');
  if (!m) return c.issues;
  c.str(m, 'text', ptr, MESSAGE_TEXT_MAX, true);
  if (m.blocks !== undefined) checkBlocks(c, m.blocks, `${ptr}/blocks`, 'message');
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
  c.str(v, 'private_metadata', ptr, PRIVATE_METADATA_MAX);
  c.str(v, 'callback_id', ptr, ID_MAX);
  c.str(v, 'external_id', ptr, ID_MAX);
  if (v.blocks === undefined) c.fail(ptr, 'missing required field: blocks');
  else checkBlocks(c, v.blocks, `${ptr}/blocks`, v.type);
  return c.issues;
}

function modalFields(c: Checker, v: Obj, ptr: string): void {
  c.text(v, 'title', ptr, { max: VIEW_TITLE_MAX, plain: true, required: true });
  c.text(v, 'submit', ptr, { max: VIEW_TITLE_MAX, plain: true });
  c.text(v, 'close', ptr, { max: VIEW_TITLE_MAX, plain: true });
  c.bool(v, 'notify_on_close', ptr);
  c.bool(v, 'clear_on_close', ptr);
  const hasInput =
    Array.isArray(v.blocks) && (v.blocks as unknown[]).some((b) => (b as Obj | null)?.type === 'input');
  if (hasInput && v.submit === undefined) {
    c.fail(ptr, 'missing required field: submit (a view with input blocks must have a submit button)');
  }
}
