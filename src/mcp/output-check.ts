// A tool call's structuredContent checked against the listed tool's outputSchema (MCP: clients SHOULD), here
// rather than by the SDK. The SDK fails both an outputSchema it cannot compile (before the request) and a result
// that does not match it (after the server ran the tool) as a local JSON-RPC -32602, the code a server's own
// refusal of the arguments has: the hub could only word either as "failed (JSON-RPC -32602)", and the person
// could not tell a tool that did run and answered wrongly from one the server refused. Here each is an error of
// its own, in words: a schema that cannot be compiled refuses the tool before anything is sent (malformed_tool,
// as a definition the MCP schema refuses), a result that breaks it fails the call saying what does not match.
// On 2026-07-28 the SDK checks nothing (rounds.ts hands it the inputSchema only), so a call's final result, after
// its input rounds, is checked here alike; so is a 2025-11-25 task's, which comes by `tasks/result`, a request
// the SDK reads as any other, checking no outputSchema (tool-run.ts runTask). The session's listing finds a schema
// that cannot be compiled first (tool-listing.ts), through the same OutputChecks, so each definition is compiled
// once per session.
// The validator is the one the SDK uses by default on Node, one per session, so its compiled schemas go with it.
import type { Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { McpClientError } from './types.js';

/** Most characters of a compiler's or validator's words kept in the error a person reads. */
const REASON_CHARS = 200;

/** Throws McpClientError when a call's result breaks the tool's outputSchema. */
export type OutputCheck = (result: Record<string, unknown>) => void;

/** A definition's outputSchema compiled: its validator, or why it cannot be compiled. */
type Compiled = { validate: ReturnType<AjvJsonSchemaValidator['getValidator']> } | { problem: string };

export class OutputChecks {
  private readonly validators = new AjvJsonSchemaValidator();
  /** Each listed definition's outputSchema compiled once (a failure too), for as long as the definition lives. */
  private readonly compiled = new WeakMap<Tool, Compiled>();

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
    if ('problem' in compiled) {
      const problem = `its definition is malformed (outputSchema: ${compiled.problem})`;
      throw new McpClientError('malformed_tool', server, `${name} on ${server} was not run: ${problem}`);
    }
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
    let compiled = this.compiled.get(definition);
    if (compiled === undefined) {
      try {
        compiled = { validate: this.validators.getValidator(outputSchema) };
      } catch (error) {
        compiled = { problem: reason(error) };
      }
      this.compiled.set(definition, compiled);
    }
    return compiled;
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
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
