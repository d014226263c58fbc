// Enum variants → options: legacy enum (+enumNames), titled oneOf, and items.enum / items.anyOf.
import { isRecord } from './guards.js';
import { MAX_OPTIONS, SchemaError, type SelectOption } from './spec.js';
import { visible } from './text.js';

/** Options of a property (`raw` is the property, or its `items` for arrays), in the server's order. */
export function options(raw: Record<string, unknown>, name: string): SelectOption[] {
  const titled = raw.oneOf ?? raw.anyOf;
  const keyword = 'oneOf' in raw ? 'oneOf' : 'anyOf' in raw ? 'anyOf' : 'enum';
  const list = keyword === 'enum' ? fromEnum(raw, name) : fromTitled(titled, keyword, name);
  if (list.length === 0) throw new SchemaError(`"${keyword}" must list at least one value`, name);
  if (list.length > MAX_OPTIONS) {
    throw new SchemaError(`has ${list.length} options; at most ${MAX_OPTIONS} fit in one Slack select`, name);
  }
  const seen = new Set<string>();
  for (const option of list) {
    if (seen.has(option.value))
      throw new SchemaError(`value ${JSON.stringify(option.value)} appears twice`, name);
    seen.add(option.value);
  }
  return list;
}

function fromEnum(raw: Record<string, unknown>, name: string): SelectOption[] {
  const values = raw.enum;
  if (!Array.isArray(values) || !values.every((v): v is string => typeof v === 'string')) {
    throw new SchemaError('"enum" must be an array of strings', name);
  }
  const names = raw.enumNames;
  if (names !== undefined) {
    const valid =
      Array.isArray(names) && names.length === values.length && names.every((n) => typeof n === 'string');
    if (!valid) throw new SchemaError('"enumNames" must be an array of strings, one per "enum" value', name);
  }
  const labels: unknown[] = Array.isArray(names) ? names : [];
  return values.map((value, i) => optionOf(value, labels[i]));
}

function fromTitled(list: unknown, keyword: string, name: string): SelectOption[] {
  if (!Array.isArray(list)) throw new SchemaError(`"${keyword}" must be an array of {const, title}`, name);
  return list.map((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.const !== 'string') {
      throw new SchemaError(`every "${keyword}" entry needs a string "const"`, name);
    }
    return optionOf(entry.const, entry.title);
  });
}

// Slack refuses option text with nothing in it, and drawing strips zero-width and bidi characters (neutralise),
// so a title with nothing visible falls back to the value. When the value shows nothing either, the label is left
// out and the option is drawn with the UI's numbered placeholder in the person's language (optionLabel); the
// value itself stays as the server sent it, so the answer is still that value.
function optionOf(value: string, title: unknown): SelectOption {
  const label = [typeof title === 'string' ? title.trim() : '', value.trim()].find(visible);
  return label === undefined ? { value } : { value, label };
}
