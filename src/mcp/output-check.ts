// A tool call's structuredContent checked against the listed tool's outputSchema (MCP: clients SHOULD), here
// rather than by the SDK. The SDK fails both an outputSchema it cannot compile (before the request) and a result
// that does not match it (after the server ran the tool) as a local JSON-RPC -32602, the code a server's own
// refusal of the arguments has: the hub could only word either as "failed (JSON-RPC -32602)", and the person
// could not tell a tool that did run and answered wrongly from one the server refused. Here each is an error of
// its own, in words: a schema that cannot be compiled refuses the tool before anything is sent (malformed_tool,
// as a definition the MCP schema refuses), a result that breaks it fails the call saying what does not match.
// On 2026-07-28 the SDK checks nothing (rounds.ts hands it the inputSchema only), so a call's final result, after
// its input rounds, is checked here alike; so is a 2025-11-25 task's, which comes by `tasks/result`, a request
// the SDK reads as any other, checking no outputSchema (tool-run.ts runTask). The server's listing finds a schema
// that cannot be compiled first (tool-listing.ts), through the same OutputChecks.
// One OutputChecks per server, shared by its sessions, compiling each schema text once: compiling may hold the
// event loop for seconds (20,000 properties took ~7 s), and a listing after notifications/tools/list_changed, or a
// call on another person's session, brings the same schema as a new object. Each text is compiled in a validator
// of its own (the one the SDK uses by default on Node): ajv answers a schema with a top-level `$id` it compiled
// before by that `$id`, so in a shared one a tool whose schema shares another's `$id`, or a schema changed under
// its `$id`, was checked against the other schema; and ajv keeps all it compiled for the instance's life, so only
// dropping the instance frees a schema (blocks/compiled-schemas.ts). The validators are built in
// schema-validators.ts, which sends what ajv says while compiling (an unknown `format`) to the bot's logger.
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from 'ajv';
import { truncate } from '../../blocks/index.js';
import { SchemaNotes, schemaValidator } from './schema-validators.js';
import { malformedTool } from './tool-refusal.js';
import { McpClientError, type McpLogger } from './types.js';

/** Most characters of a compiler's or validator's words kept in the error a person reads. */
const REASON_CHARS = 200;

/**
 * Schema texts kept compiled per server (a small schema's validator with its own ajv ~26 KB, measured); past it
 * the least recently used goes, compiled again when next met. A server listing more tools with one than this
 * has them all compiled again at each listing.
 */
export const OUTPUT_SCHEMAS_KEPT = 200;

/** Throws McpClientError when a call's result breaks the tool's outputSchema. */
export type OutputCheck = (result: Record<string, unknown>) => void;

/** A definition's outputSchema compiled: its validator, or why it cannot be compiled. */
type Compiled = { validate: ReturnType<typeof schemaValidator> } | { problem: string };

export class OutputChecks {
  /** Each outputSchema compiled (a failure too), by its text's digest; the most recently used last. */
  private readonly compiled = new Map<string, Compiled>();
  /** Each listed definition's digest: a listing's definitions serve every call until the next listing. */
  private readonly digests = new WeakMap<Tool, string>();
  /** What ajv says while compiling this server's schemas, logged once each (the SDK Client's compiles too). */
  readonly notes: SchemaNotes;

  constructor(server: string, logger?: McpLogger) {
    this.notes = new SchemaNotes(server, logger);
  }

  /** Why `definition`'s outputSchema cannot compile, in the compiler's words; undefined if it can or has none. */
  problemOf(definition: Tool): string | undefined {
    const compiled = this.compile(definition);
    return compiled !== undefined && 'problem' in compiled ? compiled.problem : undefined;
  }

  /**
   * The check of `definition`'s results; undefined when it has no outputSchema. Throws McpClientError
   * malformed_tool (the call is not sent) when its outputSchema cannot be compiled.
   */
  checkFor(definition: Tool, server: string): OutputCheck | undefined {
    const { name } = definition;
    const compiled = this.compile(definition);
    if (compiled === undefined) return undefined;
    if ('problem' in compiled)
      throw malformedTool(server, { name, problem: { path: ['outputSchema'], message: compiled.problem } });
    const { validate } = compiled;
    const fail = (what: string) =>
      new McpClientError('tool_failed', server, `tool ${name} on ${server} ${what}`);
    return (result) => {
      if (result['isError'] === true) return;
      const structured = result['structuredContent'];
      if (structured === undefined)
        throw fail('returned no structuredContent, which its outputSchema requires');
      let checked: ReturnType<typeof validate>;
      try {
        checked = validate(structured);
      } catch (error) {
        throw fail(`returned structuredContent its outputSchema could not check (${reason(error)})`);
      }
      if (!checked.valid)
        throw fail(
          `returned structuredContent that does not match its outputSchema (${oneLine(checked.errorMessage)})`,
        );
    };
  }

  private compile(definition: Tool): Compiled | undefined {
    const { outputSchema } = definition;
    if (outputSchema === undefined) return undefined;
    // A digest, not the text: a large schema's text kept as the key would double what it holds. Worked out once
    // per definition, not per call (a wide schema's text is hundreds of KB).
    let key = this.digests.get(definition);
    if (key === undefined) {
      key = createHash('sha256').update(JSON.stringify(outputSchema)).digest('base64');
      this.digests.set(definition, key);
    }
    const compiled =
      this.compiled.get(key) ?? compiledAlone(outputSchema, this.notes.loggerFor(definition.name));
    this.keep(key, compiled);
    return compiled;
  }

  /** Keeps `compiled` as the most recently used, dropping the least recently used past the bound. */
  private keep(key: string, compiled: Compiled): void {
    this.compiled.delete(key);
    const oldest = this.compiled.keys().next();
    if (this.compiled.size >= OUTPUT_SCHEMAS_KEPT && oldest.done !== true) this.compiled.delete(oldest.value);
    this.compiled.set(key, compiled);
  }
}

/** `schema` compiled in a validator of its own; one that fails leaves nothing behind but its words. */
function compiledAlone(schema: NonNullable<Tool['outputSchema']>, logger: Logger): Compiled {
  try {
    return { validate: schemaValidator(schema, logger) };
  } catch (error) {
    return { problem: reason(error) };
  }
}

/** The definition handed to the SDK: without its outputSchema, which OutputChecks checks instead. */
export function uncheckedDefinition(definition: Tool): Tool {
  const unchecked: Tool = { ...definition };
  delete unchecked.outputSchema;
  return unchecked;
}

function reason(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function oneLine(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), REASON_CHARS);
}
