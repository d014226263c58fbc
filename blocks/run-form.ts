// `/mcp run <server> <tool>` without arguments: the modal that asks for the tool's arguments, built by the
// form engine from its inputSchema, or a JSON text field when the form engine cannot render the schema
// (nested objects, more than one page of fields). Also the loading and notice views around it.
import {
  INPUT_HINT_MAX,
  INPUT_LABEL_MAX,
  PRIVATE_METADATA_MAX,
  SECTION_TEXT_MAX,
  TEXT_INPUT_MAX,
  VIEW_TITLE_MAX,
} from './slack-limits.js';
import type { InputBlock, KnownBlock, ModalView, SectionBlock } from '@slack/types';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Content } from '../src/relay/types.js';
import { CompiledSchemas } from './compiled-schemas.js';
import { withDecimalMultipleOf } from './decimals.js';
import { uiText, type Locale } from './i18n.js';
import { commandText } from './i18n-commands.js';
import { jsonFieldNumbersError } from './i18n-json-numbers.js';
import { inexactNumbers } from './json-numbers.js';
import { formModal } from './modal.js';
import { pageCount } from './pages.js';
import { boundedRegExp } from './patterns.js';
import { parseFormSchema } from './schema.js';
import { SchemaError, type FormSpec } from './spec.js';
import { readSubmission } from './submission.js';
import { metaSchemaProblem, TOOL_META_SCHEMA, withNumericBounds } from './tool-meta-schema.js';
import { dropUnreadablePatterns, tooDeep, unsatisfiableRequired } from './tool-schema-checks.js';
import { escapeMrkdwn, mrkdwn, mrkdwnChunks, plain, section, truncate } from './text.js';

/** callback_id of the arguments modal; private_metadata holds the server and tool. */
export const RUN_FORM_CALLBACK = 'mcp_run_form';
/** The block of the JSON arguments field (schemas the form engine cannot render). */
export const RUN_JSON_BLOCK = 'mcp_run_json';
const DESCRIPTION_SECTIONS_MAX = 3;

export interface RunTarget {
  server: string;
  tool: string;
}

/**
 * What an arguments modal's private_metadata holds: the tool, the conversation where `/mcp run` ran (a view
 * submission carries none, and a `route: thread` server asks there), and, when it fitted, its inputSchema.
 */
export interface RunFormTarget extends RunTarget {
  channel?: string;
  inputSchema?: unknown;
}

/** The tool's schema as a form, or undefined when the form engine cannot render it as one page. */
export function runFormSpec(inputSchema: unknown): FormSpec | undefined {
  try {
    const spec = parseFormSchema(inputSchema);
    return pageCount(spec) === 1 ? spec : undefined;
  } catch (error) {
    if (error instanceof SchemaError) return undefined;
    throw error;
  }
}

export function runFormModal(
  input: RunTarget & { channel?: string; description?: string; inputSchema: unknown; locale?: Locale },
): ModalView {
  const t = commandText(input.locale);
  const target = { s: input.server, t: input.tool, ...(input.channel ? { c: input.channel } : {}) };
  // The schema rides along when it fits, so a submission is checked without asking the server again.
  const withSchema = JSON.stringify({ ...target, schema: input.inputSchema });
  const metadata = withSchema.length <= PRIVATE_METADATA_MAX ? withSchema : JSON.stringify(target);
  if (metadata.length > PRIVATE_METADATA_MAX)
    throw new SchemaError('the server and tool names are too long for a form');
  const spec = runFormSpec(input.inputSchema);
  // Raw text: sections() escapes it.
  const heading = `*${truncate(input.tool, 200)}*${input.description ? `\n${input.description}` : ''}`;
  // The form engine's first block says which server asks ("From …"); the tool and its description follow.
  const [from, ...fields] = spec
    ? formModal(spec, { questionId: '', server: input.server, message: '', locale: input.locale }).blocks
    : [fromContext(input.server, input.locale), jsonInput(input)];
  return {
    ...frame(t.runTitle, input.locale),
    submit: plain(t.run, VIEW_TITLE_MAX),
    private_metadata: metadata,
    blocks: [...(from ? [from] : []), ...sections(heading), ...fields],
  };
}

function fromContext(server: string, locale?: Locale): KnownBlock {
  return {
    type: 'context',
    elements: [mrkdwn(uiText(locale).from(`*${escapeMrkdwn(truncate(server, 200))}*`))],
  };
}

/** The view shown while the tool's schema is fetched (the trigger_id must be used at once). */
export function loadingModal(input: RunTarget & { locale?: Locale }): ModalView {
  const t = commandText(input.locale);
  return noticeModal(t.loading(code(input.tool), code(input.server)), input.locale);
}

/** A view that only says something (the tool runs, the tool is unknown, the list failed). */
export function noticeModal(text: string, locale?: Locale): ModalView {
  return { ...frame(commandText(locale).runTitle, locale), blocks: sections(text) };
}

/** The server, tool, conversation and inputSchema (when it fitted) of an arguments modal; undefined for others. */
export function runTargetOf(view: { private_metadata?: string }): RunFormTarget | undefined {
  try {
    const data = JSON.parse(view.private_metadata ?? '') as Record<string, unknown>;
    if (typeof data.s !== 'string' || typeof data.t !== 'string') return undefined;
    return {
      server: data.s,
      tool: data.t,
      ...(typeof data.c === 'string' ? { channel: data.c } : {}),
      ...(data.schema === undefined ? {} : { inputSchema: data.schema }),
    };
  } catch {
    return undefined;
  }
}

export type ArgsResult =
  { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** The submitted arguments, typed by the form (or parsed from the JSON field) and checked by ajv. */
export function readRunArguments(inputSchema: unknown, stateValues: unknown, locale?: Locale): ArgsResult {
  const spec = runFormSpec(inputSchema);
  if (spec) {
    const read = readSubmission(spec, stateValues, { locale });
    return read.ok ? { ok: true, args: read.content satisfies Content } : read;
  }
  const t = commandText(locale);
  const fail = (message: string): ArgsResult => ({ ok: false, errors: { [RUN_JSON_BLOCK]: message } });
  const raw = jsonValue(stateValues);
  let args: unknown;
  try {
    args = JSON.parse(raw.trim() === '' ? '{}' : raw);
  } catch {
    return fail(t.jsonInvalid);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return fail(t.jsonNotObject);
  // A number a double would round (9007199254740993, 1e400) is refused, not sent as another number.
  const numbers = inexactNumbers(raw);
  if (numbers.length > 0) return fail(truncate(jsonFieldNumbersError(numbers, locale), 1500));
  const problems = schemaProblems(inputSchema, args);
  return problems ? fail(t.argumentsInvalid(problems)) : { ok: true, args: args as Record<string, unknown> };
}

/** Tool schemas compiled once per text: a tool's every run form is checked with the same validator. */
const compiled = new CompiledSchemas(() => {
  // strict off: tool schemas carry keywords and formats ajv does not know; the server checks them itself.
  // meta: each schema is still checked to be one before it compiles, by draft-07 less its pairwise `enum` pass.
  // code.regExp: a pattern is the server's, read in its ECMA-262 reading and tested bounded in time (patterns.ts).
  // multipleOf on the decimals JSON writes, as the form's answers are checked (decimals.ts).
  // ownProperties: otherwise an argument named "constructor" or "toString" is read from Object.prototype, and
  // arguments that leave it out are refused for its type.
  // logger false: ajv would console.warn a format it ignores, naming it (the server's text, any length), on every
  // compile; blocks/ writes nothing, and an ignored format is the server's to check.
  const ajv = new Ajv({
    logger: false,
    allErrors: true,
    ownProperties: true,
    strict: false,
    validateFormats: true,
    meta: TOOL_META_SCHEMA,
    code: { regExp: boundedRegExp },
  });
  addFormats.default(ajv);
  return withDecimalMultipleOf(ajv);
});

/**
 * Why the tool's inputSchema is malformed, naming the property: it breaks draft-07's meta-schema
 * (TOOL_META_SCHEMA), so its arguments could not be checked; or its `required` names a property it forbids, so
 * no arguments could pass; or it nests too deep to be checked at all (tooDeep). Such a tool is not run.
 * Undefined for a schema, also for one ajv cannot compile for another reason (a `$ref` it cannot resolve, a
 * `patternProperties` key it cannot read): its arguments go to the server unchecked. A `pattern` ajv cannot read
 * is left to the server (checkableCopy).
 * A well-formed schema is compiled here once per text, the validator its JSON arguments are then checked with.
 */
export function toolSchemaProblem(inputSchema: unknown): SchemaError | undefined {
  const deep = tooDeep(inputSchema);
  if (deep !== undefined) return deep;
  const schema = checkableCopy(inputSchema);
  try {
    compiled.validatorFor(schema);
  } catch {
    // Only a failed compile is checked against the meta-schema again, for ajv's errors as data.
    const [first] = compiled.metaSchemaErrors(schema);
    if (first !== undefined) return metaSchemaProblem(first);
  }
  return unsatisfiableRequired(schema);
}

/**
 * The schema as draft-07 reads it: without `$schema` (ajv here speaks draft-07 and would refuse other $schema
 * URIs outright), and with draft 4's boolean exclusive bounds (also OpenAPI 3.0's, which many tools wrapping an
 * HTTP API carry) written as draft-07's numbers, so such a tool runs, checked, as it did before it was checked;
 * a `pattern` ajv cannot compile is left out (the server's to check; tool-schema-checks.ts).
 */
function checkableCopy(inputSchema: unknown): Record<string, unknown> {
  if (typeof inputSchema !== 'object' || inputSchema === null) return {};
  const schema = withNumericBounds(inputSchema);
  delete schema.$schema;
  dropUnreadablePatterns(schema);
  return schema;
}

/**
 * ajv's errors for `args` against the tool's inputSchema, by the validator its arguments form checks with (the
 * schema as checkableCopy reads it, compiled once per text); [] when they pass, undefined when the schema does not
 * compile (toolSchemaProblem names the malformed ones; the others the bot cannot check) or the arguments nest too
 * deep under a recursive `$ref` to be checked. `args` is only read.
 */
export function toolArgumentErrors(inputSchema: unknown, args: object): ErrorObject[] | undefined {
  let validate: ValidateFunction;
  try {
    validate = compiled.validatorFor(checkableCopy(inputSchema));
  } catch {
    return undefined;
  }
  try {
    return validate(args) ? [] : [...(validate.errors ?? [])];
  } catch (error) {
    // ajv recurses per level of the arguments under a recursive $ref: nested deep enough, the stack runs out.
    // Such arguments cannot be checked, and go as typed, as those of a schema that does not compile.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** ajv's first problems with `args`, one line; undefined when valid or when the schema does not compile. */
function schemaProblems(inputSchema: unknown, args: object): string | undefined {
  const errors = toolArgumentErrors(inputSchema, args);
  if (errors === undefined || errors.length === 0) return undefined;
  const lines = errors.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  return truncate(lines.join('; '), 1500);
}

function jsonInput(input: { inputSchema: unknown; locale?: Locale }): InputBlock {
  const t = commandText(input.locale);
  return {
    type: 'input',
    block_id: RUN_JSON_BLOCK,
    label: plain(t.argumentsLabel, INPUT_LABEL_MAX),
    hint: plain(t.argumentsHint, INPUT_HINT_MAX),
    element: {
      type: 'plain_text_input',
      action_id: RUN_JSON_BLOCK,
      multiline: true,
      initial_value: truncate(JSON.stringify(defaultsOf(input.inputSchema), null, 2), TEXT_INPUT_MAX),
    },
  };
}

function jsonValue(stateValues: unknown): string {
  const block = (stateValues as Record<string, Record<string, { value?: unknown }>> | undefined)?.[
    RUN_JSON_BLOCK
  ];
  const value = block?.[RUN_JSON_BLOCK]?.value;
  return typeof value === 'string' ? value : '';
}

/** The schema's top-level defaults, as a starting point for the JSON field. */
function defaultsOf(inputSchema: unknown): Record<string, unknown> {
  const properties = (inputSchema as { properties?: Record<string, { default?: unknown }> } | null)
    ?.properties;
  if (typeof properties !== 'object' || properties === null) return {};
  const entries = Object.entries(properties).filter(
    ([, p]) => typeof p === 'object' && p !== null && p.default !== undefined,
  );
  return Object.fromEntries(entries.map(([name, p]) => [name, p.default]));
}

function frame(title: string, locale?: Locale): ModalView {
  const t = commandText(locale);
  return {
    type: 'modal',
    callback_id: RUN_FORM_CALLBACK,
    title: plain(title, VIEW_TITLE_MAX),
    close: plain(t.close, VIEW_TITLE_MAX),
    blocks: [],
  };
}

function sections(text: string): SectionBlock[] {
  return mrkdwnChunks(text, SECTION_TEXT_MAX, DESCRIPTION_SECTIONS_MAX).map(section);
}

const code = (name: string): string => `\`${truncate(name, 200).replace(/`/g, "'")}\``;
