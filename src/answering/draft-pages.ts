// A person's draft against the pages of the form it answers (decide.ts): the draft to work from, which page the
// screen shows, what a page holds as the person typed it, and which page to send them to when the answers fail
// the whole schema. Pure, as decide() is.
import {
  pageCount,
  pageFields,
  readSubmission,
  validationErrors,
  type FieldSpec,
  type FormSpec,
  type Locale,
} from '../../blocks/index.js';
import type { Content, Draft } from '../relay/types.js';

/** A page to show again, with its field errors keyed by block_id. */
export interface PageToFix {
  page: number;
  errors: Record<string, string>;
}

/**
 * The draft to work from: the stored one on a page the form has, holding answers to the form's own fields
 * only (all the schema can judge field by field), else a fresh one.
 */
export function workingDraft(spec: FormSpec, draft: Draft | undefined): Draft {
  if (!draft || draft.page >= pageCount(spec)) return { page: 0, answers: {}, reviewing: false };
  const entries = spec.fields.flatMap((f): [string, Content[string]][] => {
    const answer = Object.hasOwn(draft.answers, f.name) ? draft.answers[f.name] : undefined;
    return answer === undefined ? [] : [[f.name, answer]];
  });
  // fromEntries keeps a property named "__proto__" an ordinary key.
  return { ...draft, answers: Object.fromEntries(entries) };
}

/**
 * The page whose inputs the screen shows: the draft's page when it does, else another. It is not always the
 * draft's: a modal opened before a Respond elsewhere (another device, the App Home) still shows the page it
 * was on, and what the person typed there is theirs to keep (any page is theirs to reach with Back anyway).
 */
export function shownPage(
  spec: FormSpec,
  shownBlockIds: readonly string[],
  preferred: number,
): number | undefined {
  const shown = new Set(shownBlockIds);
  const whole = (page: number) => pageFields(spec, page).every((field) => shown.has(field.blockId));
  if (whole(preferred)) return preferred;
  for (let page = 0; page < pageCount(spec); page++) if (whole(page)) return page;
  return undefined;
}

/**
 * What `fields` hold in `values`, each read on its own as its type with no schema rule applied (an empty
 * schema): a value that breaks a rule is still what the person typed. A field missing from `values`, or whose
 * input cannot be read as its type, keeps its `stored` answer; one left empty has none.
 */
export function typedOnPage(fields: readonly FieldSpec[], stored: Content, values: unknown): Content {
  const state = typeof values === 'object' && values !== null ? values : {};
  const entries = fields.flatMap((field): [string, Content[string]][] => {
    const read = Object.hasOwn(state, field.blockId)
      ? readSubmission({ fields: [field], required: [], schema: {} }, state)
      : undefined;
    const kept = Object.hasOwn(stored, field.name) ? stored[field.name] : undefined;
    const answer = read?.ok ? read.content[field.name] : kept;
    return answer === undefined ? [] : [[field.name, answer]];
  });
  // fromEntries keeps a property named "__proto__" an ordinary key.
  return Object.fromEntries(entries);
}

/** Where `answers` fail the whole schema: the first page with an error, with that page's errors; else undefined. */
export function pageToFix(
  spec: FormSpec,
  answers: Content,
  locale: Locale | undefined,
): PageToFix | undefined {
  const errors = validationErrors(spec, answers, locale);
  const first = spec.fields.find((field) => field.blockId in errors);
  if (!first) return undefined;
  const page = pageOf(spec, first.blockId);
  const pageErrors = Object.fromEntries(
    pageFields(spec, page).flatMap((f): [string, string][] => {
      const message = errors[f.blockId];
      return message === undefined ? [] : [[f.blockId, message]];
    }),
  );
  return { page, errors: pageErrors };
}

function pageOf(spec: FormSpec, blockId: string): number {
  for (let page = 0; page < pageCount(spec); page++) {
    if (pageFields(spec, page).some((f) => f.blockId === blockId)) return page;
  }
  return 0;
}
