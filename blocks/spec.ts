// The form model every other module speaks: fields as parsed from an elicitation schema.
/** Fields per modal page; a longer form is split into pages with Next / Back. */
export const PAGE_FIELDS = 20;
/** Most pages a form may have; more would wear out anyone filling it in. */
export const MAX_PAGES = 5;
/** Most fields in one form (PAGE_FIELDS × MAX_PAGES); a larger schema is refused with a SchemaError. */
export const MAX_FIELDS = PAGE_FIELDS * MAX_PAGES;
/**
 * Most sections in one form. Each takes at most 2 blocks (header, and the message when the header cannot hold
 * it), so 20 of them beside a page of 20 inputs with their errors stay under a modal's 100 blocks.
 */
export const MAX_SECTIONS = 20;
/** Most options in one select (beyond 100 the person types and the bot suggests); more are refused. */
export const MAX_OPTIONS = 1000;

/**
 * UTF-8 bytes the input blocks of one page may take. Slack refuses views over 250 kB (VIEW_BYTES_MAX); the rest
 * (≤ 9 message sections of 3000 UTF-16 units, ≤ 3 bytes each, or a sectioned form's headers and messages within
 * SECTIONS_TEXT_MAX of sections.ts; the secret warning and the frame) fits in the remaining 90 kB.
 */
export const FIELDS_BYTES_MAX = 160_000;

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/**
 * An enum value: `value` is the server's const, `label` its title (enumNames/title, else the const); no label
 * when neither shows anything (only zero-width or bidi characters): it is drawn as a placeholder (optionLabel).
 */
export interface SelectOption {
  value: string;
  label?: string;
}

interface FieldCommon {
  /** Property name exactly as the server sent it (the content key). */
  name: string;
  /** Slack block_id (also the key of validation errors). */
  blockId: string;
  /** Slack action_id inside the block. */
  actionId: string;
  /** Full title, or the property name when there is none (untruncated; the modal truncates). */
  label: string;
  /** Full description, when there is one. */
  hint?: string;
  required: boolean;
  /** Set when the name, title or description looks like a secret (password, token, card number…). */
  secret?: boolean;
}

export interface TextField extends FieldCommon {
  kind: 'text';
  format?: TextFormat;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: string;
}

export interface NumberField extends FieldCommon {
  kind: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanField extends FieldCommon {
  kind: 'boolean';
  default?: boolean;
}

export interface SingleSelectField extends FieldCommon {
  kind: 'single-select';
  options: SelectOption[];
  default?: string;
}

export interface MultiSelectField extends FieldCommon {
  kind: 'multi-select';
  options: SelectOption[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

export type FieldSpec = TextField | NumberField | BooleanField | SingleSelectField | MultiSelectField;

/**
 * One titled part of a form that answers several requests at once (a 2026 round's form requests asked of one
 * person): the request's message, then its `count` fields from index `start` of FormSpec.fields.
 */
export interface FormSection {
  message: string;
  start: number;
  count: number;
}

export interface FormSpec {
  /** In the server's property order. */
  fields: FieldSpec[];
  /** Present when the form answers several requests: its parts in order, covering every field once. */
  sections?: FormSection[];
  required: string[];
  /**
   * Normalized JSON Schema (only the keywords the form enforces) that content is validated against, its
   * properties keyed by each field's blockId (validate.ts re-keys content the same way: ajv would skip a
   * property named `__proto__`).
   */
  schema: object;
}

/** The requested schema can't be shown as a Slack form. `property` is the offending property name. */
export class SchemaError extends Error {
  override name = 'SchemaError';
  readonly code = 'invalid_schema';
  constructor(
    message: string,
    readonly property?: string,
    options?: { cause?: unknown },
  ) {
    super(property === undefined ? message : `property ${quoteName(property)}: ${message}`, options);
  }
}

// Long names are shortened in messages only; `property` keeps the full name.
function quoteName(name: string): string {
  const shown = Array.from(name);
  return JSON.stringify(shown.length > 80 ? `${shown.slice(0, 80).join('')}…` : name);
}
