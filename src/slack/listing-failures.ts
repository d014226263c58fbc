// Why a server's tools could not be listed, in the person's language (`/mcp tools`, `/mcp run`): the MCP side's
// typed errors are read by their code, never by their English message. Only what the server itself answered (a
// JSON-RPC error's code) is passed on, marked as the server's; a sign-in's code is shown as an identifier.
import { listingText, type Locale } from '../../blocks/index.js';
import { McpClientError, SignInError } from '../mcp/index.js';
import { FAILURE_OF } from './server-lines.js';

/** The reason a listing failed with `error`, for `toolsUnavailable`; mrkdwn-safe (codes only, in code). */
export function listingFailureText(error: unknown, locale: Locale): string {
  const t = listingText(locale);
  if (error instanceof SignInError) return t.failureCode('signIn', error.code);
  if (!(error instanceof McpClientError)) return t.failure('other');
  const failure = FAILURE_OF[error.code];
  // Set for 'tool_failed' when the server answered tools/list with a JSON-RPC error: a number it chose.
  return error.rpcCode === undefined
    ? t.failure(failure)
    : t.failureSaying(failure, t.rpcError(error.rpcCode));
}
