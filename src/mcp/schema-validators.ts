// The JSON Schema validators src/mcp compiles a server's schemas with: the SDK's AjvJsonSchemaValidator, as its
// default is on Node (same choice of engine by `$schema`, same options, ajv-formats), but each engine built here
// with ajv's `logger` sent to the bot's logger. The SDK's own engines leave ajv's logger to console: an unknown
// `format` in a server's outputSchema (`"format": "my-thing"`, a name of any length) was console.warn'ed to
// stderr twice per compile, by the hub's check of results (output-check.ts) and by the SDK's Client.
// The engines are the project's ajv (package.json), not the copy the SDK bundles (8.18.0 in SDK 2.4.0), which
// exports no Ajv2020 or Ajv2019; both are ajv 8 with these options.
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { Ajv, type Logger } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { truncate } from '../../blocks/index.js';
import type { McpLogger } from './types.js';

/** The SDK's default engines' options (ajvProvider's createDefaultAjvInstance, SDK 2.4.0). */
const ENGINE_OPTIONS = { strict: false, validateFormats: true, validateSchema: false, allErrors: true };

/** Most characters of a tool's name (the server's text, of any length) in a log line. */
const NAME_CHARS = 100;
/**
 * Most characters of one of ajv's notes in a log line: they quote the server's text (`unknown format "…" ignored
 * in schema at path …`, a format's name of any length).
 */
const NOTE_CHARS = 200;
/** Most distinct notes logged per server: a server may list any number of formats; past it, one line says so. */
export const NOTES_LOGGED = 100;

type Engine = typeof Ajv2020 | typeof Ajv2019 | typeof Ajv;

/** `$schema` values (no trailing `#`) → engine, as the SDK's declaredDialect reads them (dialects.ts). */
const DIALECTS = new Map<string, Engine>(
  [
    ['json-schema.org/draft/2020-12/schema', Ajv2020] as const,
    ['json-schema.org/draft/2019-09/schema', Ajv2019] as const,
    ['json-schema.org/draft-07/schema', Ajv] as const,
    ['json-schema.org/draft-06/schema', Ajv] as const,
  ].flatMap(([uri, engine]) => [
    [`https://${uri}`, engine],
    [`http://${uri}`, engine],
  ]),
);

/** A schema declaring a dialect the SDK's default validator refuses; its message is the SDK's. */
export class UnsupportedDialectError extends Error {
  override name = 'UnsupportedDialectError';
  readonly code = 'unsupported_dialect';
  constructor(declared: string) {
    super(
      `JSON Schema declares an unsupported dialect ("$schema": "${declared.slice(0, 200)}"). The default ` +
        'validator supports JSON Schema 2020-12, 2019-09, draft-07, and draft-06; pass a pre-configured Ajv ' +
        'instance to AjvJsonSchemaValidator(ajv) to validate other dialects.',
    );
  }
}

function engineFor(schema: JsonSchemaType): Engine {
  const declared: unknown = schema.$schema;
  if (typeof declared !== 'string') return Ajv2020;
  const engine = DIALECTS.get(declared.replace(/#$/, ''));
  if (engine === undefined) throw new UnsupportedDialectError(declared);
  return engine;
}

/**
 * `schema` compiled in an engine of its own whose notes go to `logger` (SchemaNotes.loggerFor); throws what the
 * SDK's default validator throws for it (a dialect it refuses, a schema ajv cannot compile).
 */
export function schemaValidator<T>(schema: JsonSchemaType, logger: Logger): JsonSchemaValidator<T> {
  const Engine = engineFor(schema);
  const engine = new Engine({ ...ENGINE_OPTIONS, logger });
  addFormats.default(engine);
  return new AjvJsonSchemaValidator(engine).getValidator<T>(schema);
}

/** One server's notes from ajv (a format it does not know and ignores, say), each logged once at warn, bounded. */
export class SchemaNotes {
  private readonly logged = new Set<string>();

  constructor(
    private readonly server: string,
    private readonly logger: McpLogger | undefined,
  ) {}

  /** ajv's logger while compiling `tool`'s schema; no tool: the SDK's Client compiling, which names none. */
  loggerFor(tool?: string): Logger {
    const note = (words: unknown): void => this.note(typeof words === 'string' ? words : '', tool);
    return { log: note, warn: note, error: note };
  }

  /**
   * The SDK Client's validator (ClientOptions.jsonSchemaValidator): it compiles the listing it holds when a call
   * is handed no definition (tool-run.ts: a tool the hub's listing lacks).
   */
  clientValidator(): jsonSchemaValidator {
    return { getValidator: (schema) => schemaValidator(schema, this.loggerFor()) };
  }

  /**
   * Only ajv's first argument (a compile failure's second is the generated code, the schema's text inside), cut;
   * each distinct one once. Its words are logged, never read: what ajv says may change with its version.
   */
  private note(words: string, tool: string | undefined): void {
    const note = truncate(words, NOTE_CHARS);
    if (this.logged.has(note) || this.logged.size > NOTES_LOGGED) return;
    this.logged.add(note);
    if (this.logged.size > NOTES_LOGGED) {
      this.logger?.warn(
        { server: this.server },
        `more than ${NOTES_LOGGED} JSON Schema notes: no more logged`,
      );
      return;
    }
    const about = {
      server: this.server,
      ...(tool === undefined ? {} : { tool: truncate(tool, NAME_CHARS) }),
    };
    this.logger?.warn({ ...about, note }, "JSON Schema compiler note on a server's schema");
  }
}
