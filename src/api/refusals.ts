// What a 400 invalid_request says of a body or query ajv refused: the path of the field at fault and what it
// expects in plain words, with the value sent ("/timeout: must be a duration string like "10m" …, got 1500.5").
// A oneOf fails in every branch, so one branch's error must not speak for it: of the recipients (a branch per
// key) the branch of the key the client sent speaks; of alternatives for one value (a duration: a string or
// milliseconds) the oneOf speaks as a whole, never "must be string" for a number the other branch refused.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { FIELD_WORDS, PATTERN_WORDS } from './schemas.js';

/** The refusal of the most specific error, `<path>: <what is expected>`. */
export function describe(errors: readonly ErrorObject[]): string {
  const best = mostSpecific(errors);
  if (!best) return 'the request is not valid';
  const choice = enclosingChoice(best, errors);
  if (choice) return describeChoice(choice, best, errors);
  return `${pathOf(best) || '/'}: ${messageOf(best, errors)}`;
}

/** `, got <value>` for a value the client sent; nothing when there is none to show. */
export function got(value: unknown): string {
  const shown = show(value);
  return shown === undefined ? '' : `, got ${shown}`;
}

/** Strings are cut at 40 characters: enough to recognise, never the whole of a long one. */
const SHOWN_MAX = 40;

const cut = (text: string): string => (text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text);

function show(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'string') return JSON.stringify(cut(value));
  // JSON's other values: a number, true or false, null.
  return typeof value === 'number' || typeof value === 'boolean' || value === null
    ? String(value)
    : undefined;
}

/**
 * The deepest path; at equal depth, an error about a value the client sent (a pattern, a bound, then a type)
 * before an unknown field, before a missing one, before the oneOf around them.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const ranked = [...errors].sort((a, b) => depth(pathOf(b)) - depth(pathOf(a)) || rank(a) - rank(b));
  return ranked[0];
}

/** Errors that only say another oneOf branch was meant, least specific last. */
const STRUCTURAL: Readonly<Record<string, number>> = {
  type: 1,
  additionalProperties: 2,
  required: 3,
  oneOf: 4,
  anyOf: 4,
};

const rank = (error: ErrorObject): number => STRUCTURAL[error.keyword] ?? 0;

/** The outermost oneOf/anyOf error whose branches `error` is in, if any. */
function enclosingChoice(error: ErrorObject, errors: readonly ErrorObject[]): ErrorObject | undefined {
  const around = errors.filter(
    (e) =>
      (e.keyword === 'oneOf' || e.keyword === 'anyOf') && error.schemaPath.startsWith(`${e.schemaPath}/`),
  );
  return around.sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
}

function describeChoice(choice: ErrorObject, chosen: ErrorObject, errors: readonly ErrorObject[]): string {
  const keys = branchKeys(choice.schema);
  if (keys) return describeKeyed(choice, keys, errors);
  // Alternatives for one value: about that value itself, the oneOf's words; deeper, the error found.
  if (pathOf(chosen) === choice.instancePath)
    return `${choice.instancePath || '/'}: must be ${choiceWords(choice)}${got(choice.data)}`;
  return `${pathOf(chosen) || '/'}: ${messageOf(chosen, errors)}`;
}

/** Objects told apart by one required key each (the recipients: user, users, usergroup, channel). */
function describeKeyed(choice: ErrorObject, keys: readonly string[], errors: readonly ErrorObject[]): string {
  const at = choice.instancePath || '/';
  const list = quoted(keys);
  const data = choice.data;
  if (!isRecord(data)) return `${at}: must be an object with one of ${list}${got(data)}`;
  const unknown = Object.keys(data).find((name) => !keys.includes(name));
  if (unknown !== undefined)
    return `${choice.instancePath}/${shownName(unknown)}: unknown field; ${at} takes one of ${list}`;
  const sent = keys.filter((key) => Object.hasOwn(data, key));
  const [meant, ...more] = sent;
  if (meant === undefined) return `${at}: must have one of ${list}`;
  if (more.length > 0) return `${at}: must have only one of ${list}, got ${quotedAnd(sent)}`;
  const branch = `${choice.schemaPath}/${keys.indexOf(meant)}/`;
  return describe(errors.filter((e) => e.schemaPath.startsWith(branch)));
}

/** Each branch's one required key, when every branch is an object with exactly one (and no other fields). */
function branchKeys(branches: unknown): string[] | undefined {
  if (!Array.isArray(branches)) return undefined;
  const keys: string[] = [];
  const list: unknown[] = branches;
  for (const branch of list) {
    if (!isRecord(branch) || branch.type !== 'object' || !Array.isArray(branch.required)) return undefined;
    const required: unknown[] = branch.required;
    const [key, ...others] = required;
    if (typeof key !== 'string' || others.length > 0) return undefined;
    if (!isRecord(branch.properties) || Object.keys(branch.properties).length !== 1) return undefined;
    keys.push(key);
  }
  return keys;
}

/** What a oneOf of values takes: its words in FIELD_WORDS, else its branches' types ("a string or an array"). */
function choiceWords(choice: ErrorObject): string {
  const words = choice.parentSchema && FIELD_WORDS.get(choice.parentSchema);
  if (words !== undefined) return words;
  const branches: unknown[] = Array.isArray(choice.schema) ? choice.schema : [];
  const types = branches.map((b) => (isRecord(b) && typeof b.type === 'string' ? b.type : 'other'));
  return types.map(typeWords).join(' or ') || 'one of the forms the API document gives';
}

/** What one keyword's error says after the path. */
function messageOf(error: ErrorObject, errors: readonly ErrorObject[]): string {
  const params: Record<string, unknown> = error.params;
  const limit = typeof params.limit === 'number' ? params.limit : undefined;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `unknown field; the known fields are ${quoted(knownFields(error, errors)) || 'none'}`;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long${lengthOf(error.data, 'characters')}`;
    case 'minItems':
      return limit === 1 ? 'must not be empty' : `must have at least ${limit} items`;
    case 'maxItems':
      return `must have at most ${limit} items${lengthOf(error.data, 'items')}`;
    default:
      return `must be ${expected(error)}${got(error.data)}`;
  }
}

/** What a value keyword (type, pattern, format, a bound) expects, the field's own words first. */
function expected(error: ErrorObject): string {
  const field: Record<string, unknown> = error.parentSchema ?? {};
  const words =
    FIELD_WORDS.get(field) ??
    (typeof field.pattern === 'string' ? PATTERN_WORDS.get(field.pattern) : undefined);
  if (words !== undefined) return words;
  const params: Record<string, unknown> = error.params;
  const value = (name: string): string => String(params[name]);
  switch (error.keyword) {
    case 'type':
      return value('type').split(',').map(typeWords).join(' or ');
    case 'pattern':
      return `text matching ${value('pattern')}`;
    case 'format':
      return FORMAT_WORDS[value('format')] ?? `a ${value('format')}`;
    case 'minimum':
      return `at least ${value('limit')}`;
    case 'maximum':
      return `at most ${value('limit')}`;
    default:
      return (error.message ?? 'valid').replace(/^must be /, '');
  }
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  object: 'an object',
  array: 'an array',
  boolean: 'true or false',
  null: 'null',
};

const typeWords = (type: string): string => TYPE_WORDS[type] ?? type;

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  uri: 'an absolute URL such as "https://example.com/hook"',
  'date-time': 'an RFC 3339 date-time such as "2025-01-31T09:00:00Z"',
};

/** The fields the object at the error's path takes (of every oneOf branch that refused the same field). */
function knownFields(error: ErrorObject, errors: readonly ErrorObject[]): string[] {
  const names = new Set<string>();
  for (const e of errors) {
    const same = e.keyword === 'additionalProperties' && e.instancePath === error.instancePath;
    if (!same || e.params.additionalProperty !== error.params.additionalProperty) continue;
    const properties: unknown = e.parentSchema?.properties;
    if (isRecord(properties)) for (const name of Object.keys(properties)) names.add(name);
  }
  return [...names];
}

const lengthOf = (value: unknown, unit: string): string =>
  typeof value === 'string' || Array.isArray(value) ? `, got ${value.length} ${unit}` : '';

/** `'a', 'b', 'c'`. */
const quoted = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(', ');

/** `'a', 'b' and 'c'`. */
const quotedAnd = (names: readonly string[]): string =>
  names.length < 2 ? quoted(names) : `${quoted(names.slice(0, -1))} and ${quoted(names.slice(-1))}`;

/** The path of the field an error is about: a missing or unknown field's own path, else the value's. */
function pathOf(error: ErrorObject): string {
  const params: Record<string, unknown> = error.params;
  const extra =
    params.additionalProperty ?? (error.keyword === 'required' ? params.missingProperty : undefined);
  return typeof extra === 'string' ? `${error.instancePath}/${shownName(extra)}` : error.instancePath;
}

/**
 * A field name the client sent, as a message shows it: cut like a value (SHOWN_MAX), its control characters
 * written as \u escapes (the CLI prints messages to a terminal), then escaped as a JSON Pointer segment.
 */
function shownName(name: string): string {
  const printable = cut(name).replace(
    /\p{Cc}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escapePointer(printable);
}

const depth = (path: string): number => path.split('/').length;

/** JSON Pointer escaping (RFC 6901): "~" → "~0", "/" → "~1". */
export const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
