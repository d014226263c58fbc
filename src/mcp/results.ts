// Turning SDK results and errors into the hub's ToolResult and McpClientError.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpClientError, type ToolResult } from './types.js';

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
