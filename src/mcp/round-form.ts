// Several form requests of one 2026 round asked as one form (issue #17.4). A round's requests all come from one
// call, so the server's routing policy sends every one of them to the same answerers: one card and one form,
// one titled section per request (FORM_SECTIONS_KEYWORD), rather than a card per request. The combined schema
// renames each property `<n>.<name>` (n = the request's place in the round, from 1), so that field ids stay
// unique when two requests ask for the same name and every answer splits back to its request's key.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { isRecord, parseElicitation, toElicitResult, type FormElicitation as Form } from './elicitation.js';
import type { IncomingElicitation } from './types.js';
import { FORM_SECTIONS_KEYWORD, type Content } from '../relay/types.js';

/**
 * Most requests asked as one form: blocks/ draws at most 20 sections (MAX_SECTIONS) and 100 fields
 * (MAX_FIELDS) in one form; a round asking more gets a card per request instead.
 */
const TOGETHER_MAX = { requests: 20, fields: 100 };

/** One question for several form requests, and the way its outcome becomes each request's answer. */
export interface CombinedForm {
  request: Form;
  /** Each request's answer, by key: accept splits the content (each with its own defaults); else the action. */
  split(answer: ElicitResult): [string, ElicitResult][];
}

/**
 * The round's form requests (`params` as the server sent them or a round kept them, each valid or -32602 as when
 * asked alone) as one form; undefined when they do not fit one (then each is asked alone).
 */
export function combineForms(entries: [string, unknown][]): CombinedForm | undefined {
  return combineParsedForms(entries.map(([key, params]) => [key, asForm(parseElicitation(params))]));
}

/** combineForms for requests parsed already (as a round's are when it comes, rounds.ts). */
export function combineParsedForms(forms: [string, Form][]): CombinedForm | undefined {
  const parts = forms.map(([key, form], at) => ({ key, form, ...renamed(form.requestedSchema, at + 1) }));
  const fields = parts.reduce((sum, part) => sum + part.names.length, 0);
  if (parts.some((part) => part.properties === undefined)) return undefined;
  if (parts.length > TOGETHER_MAX.requests || fields > TOGETHER_MAX.fields) return undefined;
  const requestedSchema = {
    type: 'object',
    properties: Object.fromEntries(parts.flatMap((part) => part.properties ?? [])),
    required: parts.flatMap((part) => part.required),
    [FORM_SECTIONS_KEYWORD]: parts.map((part) => ({
      message: part.form.message,
      properties: part.names.map(([combined]) => combined),
    })),
  };
  const message = parts.map((part, at) => `${at + 1}. ${part.form.message}`).join('\n');
  return {
    request: { mode: 'form', message, requestedSchema },
    split: (answer) =>
      parts.map((part) => [part.key, answerOf(answer, part.names, part.form.requestedSchema)]),
  };
}

function asForm(request: IncomingElicitation): Form {
  if (request.mode !== 'form') throw new TypeError('combineForms takes form requests only');
  return request;
}

/** A request's properties under their combined names (`n.name`, titled by their own name when untitled). */
function renamed(schema: unknown, n: number) {
  const properties = isRecord(schema) && isRecord(schema['properties']) ? schema['properties'] : undefined;
  const names = Object.keys(properties ?? {}).map((name): [string, string] => [`${n}.${name}`, name]);
  const own = (name: string): unknown => properties?.[name];
  const required = isRecord(schema) && Array.isArray(schema['required']) ? schema['required'] : [];
  return {
    names,
    properties:
      properties === undefined
        ? undefined
        : names.map(([combined, name]): [string, unknown] => [combined, titled(own(name), name)]),
    required: names.filter(([, name]) => required.includes(name)).map(([combined]) => combined),
  };
}

/** The property as the server sent it, with its own name as its title when it has none (the label shown). */
function titled(property: unknown, name: string): unknown {
  return isRecord(property) && property['title'] === undefined ? { ...property, title: name } : property;
}

/** One request's answer from the combined outcome: its fields back under their own names. */
function answerOf(answer: ElicitResult, names: [string, string][], schema: unknown): ElicitResult {
  const content = answer.content;
  if (answer.action !== 'accept' || content === undefined) return { action: answer.action };
  const own = names.flatMap(([combined, name]): [string, Content[string]][] => {
    const value = Object.hasOwn(content, combined) ? content[combined] : undefined;
    return value === undefined ? [] : [[name, value]];
  });
  // fromEntries keeps a property named "__proto__" an ordinary key; toElicitResult adds this request's defaults.
  return toElicitResult({ action: 'accept', content: Object.fromEntries(own) }, 'form', schema);
}
