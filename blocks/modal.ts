// FormSpec → the Slack modal a person fills in. Every string is sized to Slack's limits here.
import { fieldElement } from './elements.js';
import { FORM_CALLBACK } from './ids.js';
import type { FieldSpec, FormSpec } from './spec.js';
import { SlackLimitError, mrkdwn, mrkdwnChunks, escapeMrkdwn, plain, truncate } from './text.js';

type PlainText = ReturnType<typeof plain>;

export interface ModalView {
  type: 'modal';
  callback_id: string;
  title: PlainText;
  submit: PlainText;
  close: PlainText;
  blocks: object[];
  private_metadata: string;
  notify_on_close: true;
}

/** Titles longer than this are cut in the label and shown in full in the hint. */
export const LABEL_MAX = 300;
/** Sections the message may use in the modal: with MAX_FIELDS inputs and one context this is 100 blocks. */
export const MESSAGE_SECTIONS_MAX = 9;
const HINT_MAX = 2000;
const SECTION_MAX = 3000;
const VIEW_TITLE_MAX = 24;
const METADATA_MAX = 3000;

export function formModal(
  spec: FormSpec,
  input: { questionId: string; server: string; message: string },
): ModalView {
  const private_metadata = JSON.stringify({ q: input.questionId });
  if (private_metadata.length > METADATA_MAX) {
    throw new SlackLimitError('question id too long for private_metadata');
  }
  const from = mrkdwn(`From *${escapeMrkdwn(truncate(input.server, 200))}*`);
  const blocks: object[] = [{ type: 'context', elements: [from] }];
  for (const text of mrkdwnChunks(input.message, SECTION_MAX, MESSAGE_SECTIONS_MAX)) {
    blocks.push({ type: 'section', text: mrkdwn(text) });
  }
  blocks.push(...spec.fields.map(inputBlock));
  const view: ModalView = {
    type: 'modal',
    callback_id: FORM_CALLBACK,
    title: plain(input.server.trim() || 'Request', VIEW_TITLE_MAX),
    submit: plain('Send', VIEW_TITLE_MAX),
    close: plain('Cancel', VIEW_TITLE_MAX),
    blocks,
    private_metadata,
    notify_on_close: true,
  };
  return view;
}

/** The question id stored in a form modal's private_metadata, or undefined for any other view. */
export function questionIdOf(view: { private_metadata?: string }): string | undefined {
  try {
    const data: unknown = JSON.parse(view.private_metadata ?? '');
    if (typeof data === 'object' && data !== null && 'q' in data && typeof data.q === 'string') return data.q;
  } catch {
    // Not ours: private_metadata of another view.
  }
  return undefined;
}

/** Slack lets a person leave this input empty (a required multi-select with no minItems accepts []). */
function slackOptional(field: FieldSpec): boolean {
  return !field.required || (field.kind === 'multi-select' && (field.minItems ?? 0) === 0);
}

/** The input block of one field (exported so the parser can size a form before accepting it). */
export function inputBlock(field: FieldSpec): object {
  const hint = hintText(field);
  return {
    type: 'input',
    block_id: field.blockId,
    label: plain(field.label, LABEL_MAX),
    element: fieldElement(field),
    optional: slackOptional(field),
    ...(hint !== '' && { hint: plain(hint, HINT_MAX) }),
  };
}

function hintText(field: FieldSpec): string {
  const parts = [field.label.length > LABEL_MAX ? field.label : '', field.hint ?? '', guidance(field)];
  return parts.filter((p) => p !== '').join('\n');
}

// What the element itself can't tell the person.
function guidance(field: FieldSpec): string {
  if (field.kind === 'text' && field.format === 'date-time') {
    return 'Pick the time in your own time zone; it is sent as UTC.';
  }
  if (field.kind !== 'multi-select') return '';
  const { minItems = 0, maxItems } = field;
  if (maxItems !== undefined && minItems > 0) {
    return minItems === maxItems ? `Choose ${minItems}.` : `Choose ${minItems} to ${maxItems}.`;
  }
  if (minItems > 0) return `Choose at least ${minItems}.`;
  return maxItems !== undefined ? `Choose at most ${maxItems}.` : '';
}
