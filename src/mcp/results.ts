// Turning SDK results and errors into the hub's ToolResult, ToolSummary and McpClientError.
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  UrlElicitationRequiredError,
  type Tool,
} from '@modelcontextprotocol/client';
import { ElicitRequestURLParamsSchema } from '@modelcontextprotocol/core';
import { isSessionExpired, isTransportFailure } from './transport.js';
import {
  McpClientError,
  type McpClientErrorCode,
  type ToolResult,
  type ToolSummary,
  type UrlRequired,
} from './types.js';

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

/**
 * Text content joined by newlines (images, audio and resources become short placeholders) for people to
 * read, and the whole result as the server sent it (`callResult`) for callers that keep it.
 */
export function toToolResult(result: Record<string, unknown>): ToolResult {
  const content = Array.isArray(result['content']) ? (result['content'] as ContentBlockLike[]) : [];
  const tool: ToolResult = {
    isError: result['isError'] === true,
    text: content.map(summarize).join('\n'),
    callResult: result,
  };
  if (result['structuredContent'] !== undefined) tool.structured = result['structuredContent'];
  return tool;
}

/** The MCP CallToolResult a summary stands for: its text, its structured content (objects only), whether it failed. */
export type SummaryResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function summaryResult(result: Pick<ToolResult, 'isError' | 'text' | 'structured'>): SummaryResult {
  const { structured } = result;
  return {
    content: [{ type: 'text', text: result.text }],
    ...(isPlainObject(structured) ? { structuredContent: structured } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

/**
 * What a caller that keeps a tool's result returns: the server's whole CallToolResult (images, structured
 * content, `_meta`), else the result the hub reported in words as a text result.
 */
export function wholeResult(result: ToolResult): Record<string, unknown> {
  return result.callResult ?? summaryResult(result);
}

/**
 * SDK 1.x servers send "MCP error <code>: " before their own words (SDK 2.x clients no longer add it);
 * the server's own words follow.
 */
export function serverMessage(error: ProtocolError): string {
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

/**
 * What a failed request means for the caller. Timers (named when a limit other than silence or the call's deadline
 * ended it) and the caller's abort win over the SDK's wording.
 * `sessionClosed`: the session saw its connection close before the failure came back. The SDK then fails a
 * request it had not sent yet with a plain Error (its request funnel's "Not connected"), which without this would
 * read as the tool failing.
 */
export function callError(
  error: unknown,
  server: string,
  what: string,
  run?: { timedOut: boolean; abortedByCaller: boolean; timeoutReason?: string | undefined },
  sessionClosed = false,
): McpClientError {
  const fail = (code: McpClientErrorCode, message: string, rpcCode?: number) =>
    new McpClientError(code, server, message, {
      cause: error,
      ...(rpcCode === undefined ? {} : { rpcCode }),
    });
  if (run?.timedOut === true) {
    const why = run.timeoutReason === undefined ? '' : `: ${run.timeoutReason}`;
    return fail('timeout', `${what} on ${server} timed out${why}`);
  }
  if (run?.abortedByCaller === true) return fail('aborted', `${what} on ${server} was aborted`);
  // Already said in the hub's words (a round limit, a refused input request).
  if (error instanceof McpClientError) return error;
  if (isSessionExpired(error))
    return fail('session_expired', `${server} no longer knows the session (${what})`);
  if (isTransportFailure(error))
    return fail('connection_closed', `connection to ${server} failed during ${what}`);
  if (error instanceof SdkError) return sdkFailure(error, fail, server, what);
  if (error instanceof ProtocolError) {
    return fail('tool_failed', `${what} on ${server} failed (JSON-RPC ${error.code})`, error.code);
  }
  if (sessionClosed) return fail('connection_closed', `connection to ${server} closed during ${what}`);
  return fail('tool_failed', `${what} on ${server} failed`);
}

/** The server's result broke the MCP schema: what a server's author needs to read is the SDK's error itself. */
export function isInvalidResult(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.InvalidResult;
}

/** Local failures of the SDK (nothing came back from the server that explains them). */
function sdkFailure(
  error: SdkError,
  fail: (code: McpClientErrorCode, message: string) => McpClientError,
  server: string,
  what: string,
): McpClientError {
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      return fail('timeout', `${what} on ${server} timed out`);
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected:
    case SdkErrorCode.SendFailed:
      return fail('connection_closed', `connection to ${server} closed during ${what}`);
    case SdkErrorCode.InvalidResult:
      // The SDK's message lists every schema the result missed (kilobytes of JSON, shown to the person and kept in
      // an API call's `error`): one line here, the whole of it in the session's log (isInvalidResult).
      return fail('tool_failed', `${what} on ${server} failed: its result does not follow the MCP schema`);
    case SdkErrorCode.InputRequiredRoundsExceeded:
      return fail('tool_failed', `${what} on ${server} asked for input too many times (${error.message})`);
    default:
      return fail('tool_failed', `${what} on ${server} failed (${error.message})`);
  }
}

export function toSummary(tool: Tool): ToolSummary {
  const summary: ToolSummary = { name: tool.name, inputSchema: tool.inputSchema };
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) summary.title = title;
  if (tool.description !== undefined) summary.description = tool.description;
  const taskSupport = tool.execution?.taskSupport;
  if (taskSupport === 'optional' || taskSupport === 'required') summary.taskSupport = taskSupport;
  return summary;
}
