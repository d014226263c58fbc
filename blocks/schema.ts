// Elicitation `requestedSchema` → FormSpec: the one place that decides what a form is.
// Accepts the flat schemas of MCP revisions 2025-06-18 and 2025-11-25 and refuses anything else
// with a SchemaError naming the property, which the MCP layer answers as JSON-RPC -32602.
import { FORM_SECTIONS_KEYWORD } from '../src/relay/types.js';
import { fieldBlockId } from './ids.js';
import { parseField } from './fields.js';
import { describe, isRecord } from './guards.js';
import { inputBlock } from './modal.js';
import {
  FIELDS_BYTES_MAX,
  MAX_FIELDS,
  MAX_PAGES,
  MAX_SECTIONS,
  PAGE_FIELDS,
  SchemaError,
  type FieldSpec,
  type FormSection,
  type FormSpec,
} from './spec.js';

export * from './spec.js';

/**
 * Forms parsed lately, by their schema's JSON text: every answer to a question parses its schema again (read
 * back from Redis), and a tool's questions share one schema, so at 200 submissions/s the parse was ~2.5 % of
 * the bot's CPU (issue #19 goal 6). Schemas arrive as JSON (MCP, the API, the store), so equal text is an equal
 * schema. Entries are deep-frozen: every caller shares them. A bound, not an LRU: past it the map starts over.
 */
const recentForms = new Map<string, FormSpec>();
const RECENT_FORMS = 256;

/**
 * Parses an elicitation `requestedSchema`. Defaults that break their own field's constraints
 * (wrong type, not an option, out of bounds) are ignored rather than pre-filled; keywords beyond MCP's subset
 * that still limit an answer are held to on submit (constraints.ts), other unknown keywords (and unknown string
 * formats) are ignored; everything the form can't express throws SchemaError.
 * The result is frozen and may be shared with other callers of the same schema.
 */
export function parseFormSchema(requestedSchema: unknown): FormSpec {
  const key = schemaText(requestedSchema);
  const known = key === undefined ? undefined : recentForms.get(key);
  if (known !== undefined) return known;
  const spec = deepFreeze(parseForm(requestedSchema));
  if (key === undefined) return spec;
  if (recentForms.size >= RECENT_FORMS) recentForms.clear();
  recentForms.set(key, spec);
  return spec;
}

/** The JSON text of an object schema (the cache key); undefined for anything else (not cached: it throws). */
function schemaText(requestedSchema: unknown): string | undefined {
  if (!isRecord(requestedSchema)) return undefined;
  try {
    return JSON.stringify(requestedSchema);
  } catch {
    // Not JSON (a BigInt, a cycle): no schema that came over the wire; parsed without the cache.
    return undefined;
  }
}

/** Freezes `value` and every object and array in it (a FormSpec is plain data: no cycles, no classes). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

function parseForm(requestedSchema: unknown): FormSpec {
  if (!isRecord(requestedSchema))
    throw new SchemaError(`the schema must be an object, got ${describe(requestedSchema)}`);
  if (requestedSchema.type !== 'object') {
    throw new SchemaError(`the schema's root must have type "object", got ${describe(requestedSchema.type)}`);
  }
  const properties = requestedSchema.properties;
  if (!isRecord(properties)) throw new SchemaError('the schema has no "properties" object');
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS) {
    throw new SchemaError(
      `the form has ${names.length} fields; at most ${MAX_FIELDS} fit in a Slack form ` +
        `(${MAX_PAGES} pages of ${PAGE_FIELDS})`,
    );
  }
  const required = parseRequired(requestedSchema.required, names);
  const parsed = names.map((name, index) => {
    const blockId = fieldBlockId(index, name);
    const common = { name, blockId, actionId: blockId, required: required.includes(name) };
    return parseField(properties[name], common, index);
  });
  // Keyed by block id, not by name: ajv skips a property named "__proto__" (see validate.ts byBlockId).
  const normalized = Object.fromEntries(parsed.map(({ field, schema }) => [field.blockId, schema]));
  const fields = parsed.map((p) => p.field);
  const requiredIds = fields.filter((f) => f.required).map((f) => f.blockId);
  assertFits(fields);
  const sections = parseSections(requestedSchema[FORM_SECTIONS_KEYWORD], names);
  return {
    fields,
    ...(sections === undefined ? {} : { sections }),
    required,
    schema: { type: 'object', properties: normalized, required: requiredIds, additionalProperties: false },
  };
}

/**
 * The form's sections (FORM_SECTIONS_KEYWORD), when it has them: each names its properties, and together they
 * must name every property once, in the schema's order, so each section's fields are one run of the form's.
 */
function parseSections(raw: unknown, names: string[]): FormSection[] | undefined {
  if (raw === undefined) return undefined;
  const bad = (why: string) => new SchemaError(`"${FORM_SECTIONS_KEYWORD}" ${why}`);
  if (!Array.isArray(raw) || raw.length === 0) throw bad('must be a non-empty array');
  if (raw.length > MAX_SECTIONS) throw bad(`has ${raw.length} sections; at most ${MAX_SECTIONS} fit`);
  const sections: FormSection[] = [];
  let start = 0;
  for (const entry of raw as unknown[]) {
    const properties = isRecord(entry) ? entry['properties'] : undefined;
    const message = isRecord(entry) ? entry['message'] : undefined;
    if (typeof message !== 'string' || !Array.isArray(properties))
      throw bad('entries must be { message: string, properties: string[] }');
    if (properties.some((name, at) => name !== names[start + at]))
      throw bad("must name every property once, in the schema's order");
    sections.push({ message, start, count: properties.length });
    start += properties.length;
  }
  if (start !== names.length) throw bad("must name every property once, in the schema's order");
  return sections;
}

function parseRequired(raw: unknown, names: string[]): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || !raw.every((r): r is string => typeof r === 'string')) {
    throw new SchemaError('"required" must be an array of property names');
  }
  for (const name of raw) {
    if (!names.includes(name))
      throw new SchemaError('is listed in "required" but not defined in "properties"', name);
  }
  return [...new Set(raw)];
}

// Slack refuses views over 250 kB; each page's fields get FIELDS_BYTES_MAX and the message the rest.
function assertFits(fields: FieldSpec[]): void {
  for (let start = 0; start < fields.length; start += PAGE_FIELDS) {
    const page = fields.slice(start, start + PAGE_FIELDS).map((f) => inputBlock(f));
    const bytes = new TextEncoder().encode(JSON.stringify(page)).length;
    if (bytes > FIELDS_BYTES_MAX) {
      throw new SchemaError(
        `the form is too large for a Slack modal (${bytes} bytes of fields on one page, ` +
          `at most ${FIELDS_BYTES_MAX})`,
      );
    }
  }
}
