// Paging of long forms: PAGE_FIELDS fields per modal page. The caller keeps the answers of earlier pages
// (e.g. in Redis) between submissions and merges each page's content with mergePageContent.
import type { Content } from '../src/relay/types.js';
import { PAGE_FIELDS, type FieldSpec, type FormSpec } from './spec.js';

/** A page index outside the form's pages: a caller bug, not a schema problem. */
export class PageError extends Error {
  override name = 'PageError';
  readonly code = 'invalid_page';
}

/** Pages the form has (1 for an empty form). */
export function pageCount(spec: FormSpec): number {
  return Math.max(1, Math.ceil(spec.fields.length / PAGE_FIELDS));
}

/** The fields shown on `page` (0-based); throws PageError when the form has no such page. */
export function pageFields(spec: FormSpec, page: number): FieldSpec[] {
  if (!Number.isInteger(page) || page < 0 || page >= pageCount(spec)) {
    throw new PageError(`page ${page} is outside the form's ${pageCount(spec)} pages`);
  }
  return spec.fields.slice(page * PAGE_FIELDS, (page + 1) * PAGE_FIELDS);
}

/**
 * `stored` answers with `page`'s answers replaced by `pageContent`: a field of that page left empty this
 * time is dropped, answers of other pages are kept. Keys come out in the form's field order.
 */
export function mergePageContent(
  spec: FormSpec,
  stored: Content,
  pageContent: Content,
  page: number,
): Content {
  const onPage = new Set(pageFields(spec, page).map((f) => f.name));
  const entries = spec.fields.flatMap((f): [string, Content[string]][] => {
    const source = onPage.has(f.name) ? pageContent : stored;
    const value = Object.hasOwn(source, f.name) ? source[f.name] : undefined;
    return value === undefined ? [] : [[f.name, value]];
  });
  // fromEntries keeps a property named "__proto__" an ordinary key.
  return Object.fromEntries(entries);
}

/** `field` with `answer` as its pre-filled value when the answer has the field's type. */
export function withAnswer(field: FieldSpec, answer: Content[string] | undefined): FieldSpec {
  if (answer === undefined) return field;
  switch (field.kind) {
    case 'text':
    case 'single-select':
      return typeof answer === 'string' ? { ...field, default: answer } : field;
    case 'number':
    case 'integer':
      return typeof answer === 'number' ? { ...field, default: answer } : field;
    case 'boolean':
      return typeof answer === 'boolean' ? { ...field, default: answer } : field;
    case 'multi-select':
      return Array.isArray(answer) ? { ...field, default: answer } : field;
  }
}
