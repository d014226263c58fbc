// `/mcp run <server> <tool> {JSON}`: the arguments typed inline checked against the tool's inputSchema by the
// validator its arguments form uses (run-form.ts), before anything is sent; and the answer that names each failing
// argument by its JSON Pointer (RFC 6901, JSON Schema's instance location) and what it expects.
import type { ErrorObject } from 'ajv';
import { withoutFormErrors } from './combinator-errors.js';
import { uiText, type Locale, type UiText } from './i18n.js';
import { inlineArgsText, type InlineArgsText, type JsonTypeName } from './i18n-inline-args.js';
import { inexactNumberMessage, jsonNumbersText } from './i18n-json-numbers.js';
import type { InexactNumber } from './json-numbers.js';
import { toolArgumentErrors, toolSchemaProblem } from './run-form.js';
import { MESSAGE_TEXT_ADVISED_MAX, OPTION_TEXT_MAX } from './slack-limits.js';
import type { SchemaError } from './spec.js';
import { escapeMrkdwnWithin } from './text.js';
import { keywordMessage } from './validate.js';
import { pointerToken } from './json-pointer.js';

/** Failing arguments listed in the answer; the rest are counted ("…and 3 more"). */
export const ARGUMENT_PROBLEMS_SHOWN = 10;
/** Characters of an argument's path shown, escaped (a typed name may be of any length, all `&`). */
const PATH_SHOWN_MAX = 200;
/** Characters kept for the "…and N more problems" line, whose N is known only once the lines are fitted. */
const MORE_LINE_MAX = 60;
/** Values an `enum` or `const` problem lists before "…", and characters of each (the form's own bounds). */
const ALLOWED_SHOWN = 10;
const ALLOWED_CHARS = OPTION_TEXT_MAX;

/** One failing argument: where (a JSON Pointer; '' is the arguments object itself) and what it expects. */
export interface ArgumentProblem {
  path: string;
  /** In the person's language, formatted for mrkdwn. */
  message: string;
}

/**
 * How inline arguments meet the tool's inputSchema. `pass`: sent as typed. `unchecked`: a schema the bot cannot
 * check (ajv cannot compile it for a reason other than a malformed schema), sent as typed, as before. `malformed`:
 * the schema breaks draft-07 (toolSchemaProblem), so no arguments can be checked: the tool is not run, as its form
 * would not run it. `invalid`: the problems, the first of each argument, in ajv's order.
 */
export type InlineArgumentsCheck =
  | { verdict: 'pass' | 'unchecked' }
  | { verdict: 'malformed'; problem: SchemaError }
  | { verdict: 'invalid'; problems: ArgumentProblem[] };

export function checkInlineArguments(
  inputSchema: unknown,
  args: object,
  locale?: Locale,
): InlineArgumentsCheck {
  const problem = toolSchemaProblem(inputSchema);
  if (problem !== undefined) return { verdict: 'malformed', problem };
  const errors = toolArgumentErrors(inputSchema, args);
  if (errors === undefined) return { verdict: 'unchecked' };
  if (errors.length === 0) return { verdict: 'pass' };
  const texts = { ui: uiText(locale), t: inlineArgsText(locale) };
  // The first problem of each argument, as the form shows the first under each field.
  const byPath = new Map<string, string>();
  const readable = withoutFormErrors(errors, inputSchema).filter(reported);
  for (const error of readable.length > 0 ? readable : errors) {
    const path = pathOf(error);
    if (!byPath.has(path)) byPath.set(path, messageFor(error, texts));
  }
  return { verdict: 'invalid', problems: [...byPath].map(([path, message]) => ({ path, message })) };
}

/**
 * The problems of typed arguments: first each number that would not reach the server as typed (`numbers`,
 * inexactNumbers of the text), then the schema's (`schema`, from checkInlineArguments) of the other arguments.
 * An argument has one problem, as under a form field: its number's, as the schema saw only the rounded number.
 */
export function withNumberProblems(
  numbers: readonly InexactNumber[],
  schema: readonly ArgumentProblem[],
  locale?: Locale,
): ArgumentProblem[] {
  const first = numbers.map((n) => ({ path: n.path, message: inexactNumberMessage(n.kind, locale) }));
  const named = new Set(first.map((p) => p.path));
  return [...first, ...schema.filter((p) => !named.has(p.path))];
}

/**
 * The answer to arguments refused: the tool and server (mrkdwn code, as the caller formats them), each problem on
 * its line (at most ARGUMENT_PROBLEMS_SHOWN), and how to fix them, the form among the ways. `numbersOnly`: the
 * schema took them and only numbers that cannot be sent as typed are refused, which the first line says instead.
 */
export function inlineArgumentsRefusal(input: {
  tool: string;
  server: string;
  problems: readonly ArgumentProblem[];
  /** `/mcp run <server> <tool>` as the person would type it, mrkdwn code. */
  formCommand: string;
  numbersOnly?: boolean;
  locale?: Locale;
}): string {
  const t = inlineArgsText(input.locale);
  const refused = input.numbersOnly === true ? jsonNumbersText(input.locale).refused : t.refused;
  const [head, foot] = [refused(input.tool, input.server), t.fix(input.formCommand)];
  // Slack shows a message whole up to its advised length (past 40,000 it cuts it, mid-entity): the lines that fit.
  let room = MESSAGE_TEXT_ADVISED_MAX - head.length - foot.length - MORE_LINE_MAX - 3;
  const lines: string[] = [];
  for (const p of input.problems.slice(0, ARGUMENT_PROBLEMS_SHOWN)) {
    const line = t.line(p.path === '' ? t.whole : code(p.path), p.message);
    if (line.length + 1 > room) break;
    lines.push(line);
    room -= line.length + 1;
  }
  const rest = input.problems.length - lines.length;
  return [head, ...lines, ...(rest > 0 ? [t.more(rest)] : []), foot].join('\n');
}

/**
 * Whether an error is the person's to read: not one inside an `anyOf`/`oneOf` form (the combinator's own error says
 * none matched; ajv keeps a form's errors only when the whole fails), nor `if`'s (its `then`/`else` errors say why).
 */
function reported(error: ErrorObject): boolean {
  return error.keyword !== 'if' && !/\/(?:anyOf|oneOf)\/\d+\//.test(error.schemaPath);
}

/** The failing argument's JSON Pointer: a missing or forbidden property's own, not its parent object's. */
function pathOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
  const name = error.keyword === 'additionalProperties' ? params.additionalProperty : params.missingProperty;
  if (typeof name !== 'string') return error.instancePath;
  // ajv's instancePath is already a JSON Pointer; the name is made its last token.
  return `${error.instancePath}/${pointerToken(name)}`;
}

function messageFor(error: ErrorObject, texts: { ui: UiText; t: InlineArgsText }): string {
  const { ui, t } = texts;
  switch (error.keyword) {
    case 'minItems':
    case 'maxItems':
      return t[error.keyword]((error.params as { limit?: number }).limit ?? 0);
    case 'format':
      return formatMessage(error, texts);
    case 'enum':
    case 'const':
      return allowedMessage(error, ui);
    default:
      return keywordMessage(error, ui) ?? structureMessage(error, t);
  }
}

/** Keywords about a value's shape rather than its bounds. */
function structureMessage(error: ErrorObject, t: InlineArgsText): string {
  const params = error.params as { type?: unknown; property?: unknown; passingSchemas?: unknown };
  switch (error.keyword) {
    case 'type':
      return t.mustBe(typesOf(params.type).map((type) => t.typeName(type)));
    case 'additionalProperties':
    case 'false schema':
      return t.notAllowed;
    case 'dependencies':
      return t.requiredWith(code(String(params.property)));
    case 'uniqueItems':
      return t.uniqueItems;
    case 'anyOf':
      return t.matchesNone;
    case 'oneOf':
      return params.passingSchemas === null ? t.matchesNone : t.matchesSeveral;
    default:
      return t.breaks(code(error.keyword));
  }
}

const JSON_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const isJsonType = (name: string): name is JsonTypeName => JSON_TYPES.has(name);

/** ajv's `type` param: one type, several joined by commas, or a list. */
function typesOf(type: unknown): JsonTypeName[] {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return names.filter(isJsonType);
}

function formatMessage(error: ErrorObject, texts: { ui: UiText; t: InlineArgsText }): string {
  const format = (error.params as { format?: unknown }).format;
  const errors = texts.ui.errors;
  const known: Record<string, string> = {
    email: errors.email,
    uri: errors.uri,
    date: errors.date,
    'date-time': errors.dateTime,
  };
  const name = typeof format === 'string' ? format : '';
  return known[name] ?? texts.t.format(code(name));
}

/** The values an `enum` or `const` takes, as JSON (a typed argument is JSON), each in code. */
function allowedMessage(error: ErrorObject, ui: UiText): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  const values = params.allowedValues ?? [params.allowedValue];
  const shown = values
    .slice(0, ALLOWED_SHOWN)
    .map((v) => code(JSON.stringify(v) ?? String(v), ALLOWED_CHARS));
  return ui.errors.oneOf([...shown, ...(values.length > ALLOWED_SHOWN ? ['…'] : [])].join(', '));
}

/** `text` as mrkdwn code: escaped, its backticks (which would end the code) made quotes. */
function code(text: string, max = PATH_SHOWN_MAX): string {
  // On one line: a name's newline would end its problem's line and start a line of the server's choosing.
  return `\`${escapeMrkdwnWithin(text.replace(/[\r\n]+/g, ' '), max).replace(/`/g, "'")}\``;
}
