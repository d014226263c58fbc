// Turning SDK results and errors into the hub's ToolResult and McpClientError.
import {
  ElicitRequestURLParamsSchema,
  ErrorCode,
  McpError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { McpClientError, type ToolResult, type UrlRequired } from './types.js';

interface ContentBlockLike {
  type: string;
  text?: unknown;
  uri?: unknown;
  resource?: { uri?: unknown };
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function summarize(block: ContentBlockLike): string {
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'resource':
      return `[resource ${str(block.resource?.uri)}]`;
    case 'resource_link':
      return `[link ${str(block.uri)}]`;
    default:
      return `[${block.type}]`;
  }
}

/** Text content joined by newlines; images, audio and resources become short placeholders. */
export function toToolResult(result: Record<string, unknown>): ToolResult {
  const content = Array.isArray(result['content']) ? (result['content'] as ContentBlockLike[]) : [];
  const tool: ToolResult = { isError: result['isError'] === true, text: content.map(summarize).join('\n') };
  if (result['structuredContent'] !== undefined) tool.structured = result['structuredContent'];
  return tool;
}

/** The SDK prefixes "MCP error <code>: " once on each side of the wire; the server's own words follow. */
export function serverMessage(error: McpError): string {
  return error.message.replace(/^(MCP error -?\d+: )+/, '');
}

/**
 * A -32042 answer (`URLElicitationRequiredError`) is a result the person acts on, not a failure: the links
 * to open come back as `urlRequired`. Entries that are not valid URL-mode requests are left out (the SDK
 * passes `data.elicitations` through unchecked). Undefined for any other error, or when no entry is valid.
 */
export function urlRequiredResult(error: unknown): ToolResult | undefined {
  if (!(error instanceof UrlElicitationRequiredError)) return undefined;
  const listed: unknown = error.elicitations;
  const urlRequired: UrlRequired[] = [];
  for (const entry of Array.isArray(listed) ? listed : []) {
    const parsed = ElicitRequestURLParamsSchema.safeParse(entry);
    if (!parsed.success) continue;
    const { elicitationId, url, message } = parsed.data;
    urlRequired.push({ elicitationId, url, message });
  }
  return urlRequired.length === 0 ? undefined : { isError: true, text: serverMessage(error), urlRequired };
}

/** Classifies a failed request by JSON-RPC code; an aborted caller signal wins over the SDK's wording. */
export function toClientError(
  error: unknown,
  server: string,
  what: string,
  signal?: AbortSignal,
): McpClientError {
  if (signal?.aborted === true) {
    return new McpClientError('aborted', server, `${what} on ${server} was aborted`, { cause: error });
  }
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.RequestTimeout)) {
      return new McpClientError('timeout', server, `${what} on ${server} timed out`, { cause: error });
    }
    if (error.code === Number(ErrorCode.ConnectionClosed)) {
      return new McpClientError(
        'connection_closed',
        server,
        `connection to ${server} closed during ${what}`,
        {
          cause: error,
        },
      );
    }
    return new McpClientError('tool_failed', server, `${what} on ${server} failed (JSON-RPC ${error.code})`, {
      cause: error,
      rpcCode: error.code,
    });
  }
  return new McpClientError('tool_failed', server, `${what} on ${server} failed`, { cause: error });
}
