// Multi round-trip requests (revision 2026-07-28) driven by the hub rather than by the SDK ("manual mode",
// `inputRequired.autoFulfill: false`): a `tools/call` answered `input_required` is a round the hub holds,
// so that it can later live outside this process (a durable continuation) instead of inside an SDK promise.
// Each round: every `inputRequests` entry is answered (in parallel, each its own question of the call),
// then the call is sent again as a new request (so a new JSON-RPC id) with `inputResponses` keyed exactly
// as the entries were and `requestState` passed back byte for byte, never parsed; absent when the server
// sent none. The server may answer `input_required` again; after `maxRounds` retries the call fails.
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  withInputRequired,
  type Client,
  type ElicitResult,
  type InputRequest,
  type RequestOptions,
} from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { McpClientError } from './types.js';

/** How many times a call is sent again for input before it fails; the spec's suggested default. */
export const DEFAULT_MAX_ROUNDS = 10;

/** Answers one entry of a round; only `elicitation/create` is ever declared, so only it is answered. */
export type AnswerInput = (key: string, request: InputRequest) => Promise<ElicitResult>;

export interface RoundsOptions {
  server: string;
  maxRounds: number;
  /** Per-leg request options (signal, progress); the time people take answering is outside them. */
  request: RequestOptions;
  answer: AnswerInput;
}

/** Runs `tools/call` through as many rounds as the server asks for; resolves with its `CallToolResult`. */
export async function callWithRounds(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  opts: RoundsOptions,
): Promise<Record<string, unknown>> {
  const schema = withInputRequired(CallToolResultSchema);
  let retry: { inputResponses?: Record<string, ElicitResult>; requestState?: string } = {};
  for (let round = 0; ; round += 1) {
    const sent = { method: 'tools/call', params: { ...params, ...retry } };
    const result = await client
      .request(sent, schema, { ...opts.request, allowInputRequired: true })
      .catch((error: unknown) => {
        throw retry.requestState === undefined ? error : expiredRound(error, params.name, opts.server, round);
      });
    if (!isInputRequiredResult(result)) return result;
    if (round >= opts.maxRounds) {
      throw new McpClientError(
        'tool_failed',
        opts.server,
        `${params.name} on ${opts.server} still asked for input after ${rounds(opts.maxRounds)}, the most allowed`,
      );
    }
    const entries = Object.entries(result.inputRequests ?? {});
    const answers = await Promise.all(
      entries.map(async ([key, request]) => [key, await opts.answer(key, request)] as const),
    );
    retry = {
      ...(entries.length === 0 ? {} : { inputResponses: Object.fromEntries(answers) }),
      ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
    };
  }
}

const rounds = (n: number): string => (n === 1 ? '1 round' : `${n} rounds`);

/**
 * A retry refused with -32602 (invalid params) is the server refusing the `requestState` it minted: the
 * SDK's codec answers "Invalid or expired requestState" once its TTL (600 s by default) has passed, which
 * people answering in Slack easily outlast. It is said as 'round_expired', so the person can start again;
 * anything else is left as it was.
 */
function expiredRound(error: unknown, tool: string, server: string, round: number): unknown {
  const invalidParams: number = ProtocolErrorCode.InvalidParams;
  if (!(error instanceof ProtocolError) || error.code !== invalidParams) return error;
  return new McpClientError(
    'round_expired',
    server,
    `${server} no longer accepts the answers to round ${round} of ${tool}: it says its request state is invalid or expired`,
    { cause: error, rpcCode: error.code },
  );
}

/** Refuses an entry that is not a question (sampling, roots): this client never declares those. */
export function onlyElicitation(server: string, request: InputRequest): unknown {
  if (request.method === 'elicitation/create') return request.params;
  throw new McpClientError(
    'tool_failed',
    server,
    `${server} asked for ${request.method}, which this client does not offer`,
  );
}
