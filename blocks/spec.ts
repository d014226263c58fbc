// The form model every other module speaks: fields as parsed from an elicitation schema.
/** Most fields in one modal: 100 blocks minus the "from" context and up to 9 message sections. */
export const MAX_FIELDS = 90;
/** Most options in one select (10 option groups of 100), which keeps a view well under Slack's 250 kB. */
export const MAX_OPTIONS = 1000;

/**
 * UTF-8 bytes the input blocks may take. Slack refuses views over 250 kB; the rest (≤ 9 message sections
 * of 3000 UTF-16 units, ≤ 3 bytes each, plus the frame) always fits in the remaining 90 kB.
 */
export const FIELDS_BYTES_MAX = 160_000;

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** An enum value: `value` is the server's const, `label` its title (enumNames/title, else the const). */
export interface SelectOption {
  value: string;
  label: string;
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

export interface FormSpec {
  /** In the server's property order. */
  fields: FieldSpec[];
  required: string[];
  /** Normalized JSON Schema (only the keywords the form enforces) that content is validated against. */
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
