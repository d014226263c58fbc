// FormSpec → the Slack modal a person fills in, one page of PAGE_FIELDS fields at a time.
// Every string is sized to Slack's limits here.
import {
  BUTTON_TEXT_MAX,
  INPUT_HINT_MAX,
  PRIVATE_METADATA_MAX,
  SECTION_TEXT_MAX,
  VIEW_BYTES_MAX,
  VIEW_TITLE_MAX,
} from './slack-limits.js';
import type {
  ActionsBlock,
  ContextBlock,
  InputBlock,
  KnownBlock,
  ModalView,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import type { Content } from '../src/relay/types.js';
import { fieldElement } from './elements.js';
import { uiText, type Locale } from './i18n.js';
import { FORM_CALLBACK, PAGE_BACK_ACTION } from './ids.js';
import { pageCount, pageFields, withAnswer } from './pages.js';
import { sectionedFields } from './sections.js';
import type { FieldSpec, FormSpec } from './spec.js';
import { SlackLimitError, mrkdwn, mrkdwnChunks, escapeMrkdwn, plain, section, truncate } from './text.js';

export type { ModalView };

/** A form page: Slack's ModalView with what every page carries (buttons, metadata, known blocks) required. */
export type FormModalView = Omit<ModalView, 'blocks' | 'submit' | 'close' | 'private_metadata'> & {
  blocks: KnownBlock[];
  submit: PlainTextElement;
  close: PlainTextElement;
  private_metadata: string;
};

/** Titles longer than this are cut in the label and shown in full in the hint. */
export const LABEL_MAX = 300;
/** Sections the message may use in the modal (with a page of fields this stays far below 100 blocks). */
export const MESSAGE_SECTIONS_MAX = 9;
/** Characters of field labels listed in the secret warning. */
const WARNING_NAMES_MAX = 1000;
/** Characters of a field error shown under its input. */
const ERROR_MAX = 2000;

export interface FormModalInput {
  questionId: string;
  server: string;
  message: string;
  /** UI language; English when absent. */
  locale?: Locale;
  /** 0-based page of a long form (see pageCount); default 0. */
  page?: number;
  /** Answers given earlier (e.g. before Back), pre-filled in place of the schema's defaults. */
  answers?: Content;
  /** Errors of this page's fields by block_id, shown under each (when the person is sent back to fix them). */
  errors?: Record<string, string>;
}

export function formModal(spec: FormSpec, input: FormModalInput): FormModalView {
  const t = uiText(input.locale);
  const page = input.page ?? 0;
  const pages = pageCount(spec);
  const fields = pageFields(spec, page).map((f) =>
    input.answers && Object.hasOwn(input.answers, f.name) ? withAnswer(f, input.answers[f.name]) : f,
  );
  // The question id, and the language the form is drawn in: the page and the answers so far are the bot's
  // own state, never the view's.
  const private_metadata = viewMetadata(input.questionId, input.locale);
  if (private_metadata.length > PRIVATE_METADATA_MAX) {
    throw new SlackLimitError('question id too long for private_metadata');
  }
  const from = mrkdwn(t.from(`*${escapeMrkdwn(truncate(input.server, 200))}*`));
  const header = pages > 1 ? [from, mrkdwn(t.page(page + 1, pages))] : [from];
  const head: KnownBlock[] = [{ type: 'context', elements: header }, ...secretWarning(spec, input.locale)];
  const draw = (f: FieldSpec): KnownBlock[] => [
    inputBlock(f, input.locale),
    ...fieldError(input.errors?.[f.blockId]),
  ];
  // Each section carries its request's message; the question's own message is the card's.
  const body =
    spec.sections === undefined
      ? fields.flatMap(draw)
      : sectionedFields({ ...spec, sections: spec.sections }, page, fields, draw);
  const view: FormModalView = {
    type: 'modal',
    callback_id: FORM_CALLBACK,
    title: plain(input.server.trim() || t.titleFallback, VIEW_TITLE_MAX),
    submit: plain(page + 1 < pages ? t.next : t.submit, VIEW_TITLE_MAX),
    close: plain(t.cancel, VIEW_TITLE_MAX),
    blocks: [...head, ...body, ...(page > 0 ? [backButton(input.questionId, t.back)] : [])],
    private_metadata,
    notify_on_close: true,
  };
  if (spec.sections !== undefined) return view;
  const message = messageSections(input.message, jsonBytes(view));
  return { ...view, blocks: [...head, ...message, ...view.blocks.slice(head.length)] };
}

/**
 * The message's sections beside a view of `restBytes` (UTF-8 JSON): at most MESSAGE_SECTIONS_MAX, fewer when
 * they would take the view past Slack's 250 kB. FIELDS_BYTES_MAX leaves the message room for 9 full sections, but
 * not beside an error under each field: a page at that size shown again with errors quoting the server's
 * `const` ("Must be one of: &&&…", escaped fivefold) came to 250.7 kB, and Slack refused it. The last section
 * shown ends in "…".
 */
function messageSections(message: string, restBytes: number): SectionBlock[] {
  for (let count = MESSAGE_SECTIONS_MAX; ; count -= 1) {
    const sections = mrkdwnChunks(message, SECTION_TEXT_MAX, count).map(section);
    // jsonBytes counts the array's brackets, which pay for the commas joining it to the view's blocks.
    if (count === 1 || restBytes + jsonBytes(sections) <= VIEW_BYTES_MAX) return sections;
  }
}

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * A form's or review's private_metadata: the question id and, when the view was drawn in a known language, that
 * language, so a submit is answered (field errors, next page, review) in it without asking Slack for the
 * person's locale again (users.info: a Web API round trip before the ack on a replica that has not cached it).
 */
export function viewMetadata(questionId: string, locale?: Locale): string {
  return JSON.stringify(locale === undefined ? { q: questionId } : { q: questionId, l: locale });
}

/** The language a form or review view was drawn in, from its private_metadata; undefined when it names none. */
export function viewLocaleOf(view: { private_metadata?: string }): Locale | undefined {
  const l = metadataOf(view)?.l;
  return l === 'en' || l === 'zh-CN' ? l : undefined;
}

/** The question id stored in a form modal's private_metadata, or undefined for any other view. */
export function questionIdOf(view: { private_metadata?: string }): string | undefined {
  const data = metadataOf(view);
  return typeof data?.q === 'string' ? data.q : undefined;
}

function metadataOf(view: { private_metadata?: string }): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(view.private_metadata ?? '');
    if (typeof data === 'object' && data !== null) return data as Record<string, unknown>;
  } catch {
    // Not ours: private_metadata of another view.
  }
  return undefined;
}

/** A field's error under its input, when it has one (Slack shows response_action errors only on the view submitted). */
function fieldError(message: string | undefined): ContextBlock[] {
  if (message === undefined) return [];
  return [{ type: 'context', elements: [mrkdwn(`:warning: ${escapeMrkdwn(truncate(message, ERROR_MAX))}`)] }];
}

// Slack modals have one submit button, so Back is a button whose block_actions the caller answers with
// views.update to the previous page (answers pre-filled from what it stored).
function backButton(questionId: string, text: string): ActionsBlock {
  return {
    type: 'actions',
    block_id: 'elicit_page_nav',
    elements: [
      { type: 'button', action_id: PAGE_BACK_ACTION, text: plain(text, BUTTON_TEXT_MAX), value: questionId },
    ],
  };
}

// Shown on every page, naming every such field of the form: the warning is about the request.
function secretWarning(spec: FormSpec, locale?: Locale): ContextBlock[] {
  const labels = spec.fields.filter((f) => f.secret === true).map((f) => f.label);
  if (labels.length === 0) return [];
  // Cut after escaping: a label of "&" or "<" grows fivefold or fourfold when escaped, and 1000 cut characters
  // escaped could pass a context text's 3000.
  const names = mrkdwnChunks(labels.join(', '), WARNING_NAMES_MAX, 1)[0] ?? '';
  return [{ type: 'context', elements: [mrkdwn(uiText(locale).secretWarning(names))] }];
}

/** Slack lets a person leave this input empty (a required multi-select with no minItems accepts []). */
function slackOptional(field: FieldSpec): boolean {
  return !field.required || (field.kind === 'multi-select' && (field.minItems ?? 0) === 0);
}

/** The input block of one field (exported so the parser can size a form before accepting it). */
export function inputBlock(field: FieldSpec, locale?: Locale): InputBlock {
  const hint = hintText(field, locale);
  return {
    type: 'input',
    block_id: field.blockId,
    label: plain(field.label, LABEL_MAX),
    element: fieldElement(field, locale),
    optional: slackOptional(field),
    ...(hint !== '' && { hint: plain(hint, INPUT_HINT_MAX) }),
  };
}

function hintText(field: FieldSpec, locale?: Locale): string {
  const parts = [
    field.label.length > LABEL_MAX ? field.label : '',
    field.hint ?? '',
    guidance(field, locale),
  ];
  return parts.filter((p) => p !== '').join('\n');
}

// What the element itself can't tell the person.
function guidance(field: FieldSpec, locale?: Locale): string {
  const t = uiText(locale);
  if (field.kind === 'text' && field.format === 'date-time') return t.dateTimeGuidance;
  if (field.kind !== 'multi-select') return '';
  const { minItems = 0, maxItems } = field;
  if (maxItems !== undefined && minItems > 0) {
    return minItems === maxItems ? t.chooseExactly(minItems) : t.chooseBetween(minItems, maxItems);
  }
  if (minItems > 0) return t.chooseAtLeastHint(minItems);
  return maxItems !== undefined ? t.chooseAtMostHint(maxItems) : '';
}
