// A 2025 tool call's structuredContent checked against the listed tool's outputSchema (MCP: clients SHOULD), here
// rather than by the SDK. The SDK fails both an outputSchema it cannot compile (before the request) and a result
// that does not match it (after the server ran the tool) as a local JSON-RPC -32602, the code a server's own
// refusal of the arguments has: the hub could only word either as "failed (JSON-RPC -32602)", and the person
// could not tell a tool that did run and answered wrongly from one the server refused. Here each is an error of
// its own, in words: a schema that cannot be compiled refuses the tool before anything is sent (malformed_tool,
// as a definition the MCP schema refuses), a result that breaks it fails the call saying what does not match.
// The validator is the one the SDK uses by default on Node, one per session, so its compiled schemas go with it.
import type { Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { McpClientError } from './types.js';

/** Most characters of a compiler's or validator's words kept in the error a person reads. */
const REASON_CHARS = 200;

/** Throws McpClientError when a call's result breaks the tool's outputSchema. */
export type OutputCheck = (result: Record<string, unknown>) => void;

export class OutputChecks {
  private readonly validators = new AjvJsonSchemaValidator();

  /**
   * The check of `definition`'s results; undefined when it has no outputSchema. Throws McpClientError
   * malformed_tool (the call is not sent) when its outputSchema cannot be compiled.
   */
  checkFor(definition: Tool, server: string): OutputCheck | undefined {
    const { name, outputSchema } = definition;
    if (outputSchema === undefined) return undefined;
    let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>;
    try {
      validate = this.validators.getValidator(outputSchema);
    } catch (error) {
      const problem = `its definition is malformed (outputSchema: ${reason(error)})`;
      throw new McpClientError('malformed_tool', server, `${name} on ${server} was not run: ${problem}`);
    }
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
