// Multi round-trip requests (revision 2026-07-28) driven by the hub rather than by the SDK ("manual mode",
// `inputRequired.autoFulfill: false`): a `tools/call` answered `input_required` is a round the hub holds,
// so that it can later live outside this process (a durable continuation) instead of inside an SDK promise.
// Each round: every `inputRequests` entry is answered (in parallel, each its own question of the call),
// then the call is sent again as a new request (so a new JSON-RPC id) with `inputResponses` keyed exactly
// as the entries were and `requestState` passed back byte for byte, never parsed; absent when the server
// sent none. The server may answer `input_required` again; after `maxRounds` retries the call fails.
// A durable call (ToolCall.durable) also keeps each round in the round store (continuation.ts), so that a
// survivor can send the retry if this replica dies; otherwise the round lives in this promise only.
// Each leg goes through Client.callTool so that the SDK mirrors the tool's `x-mcp-header` arguments into
// `Mcp-Param-*` headers (SEP-2243; a 2026 server refuses a call without them); see `send`. The client is asked
// for afresh at each leg (`Legs`): the server keeps nothing between legs, so a retry may go on another
// connection than the one that asked the round, when that one was lost while people answered (tool-run.ts).
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type ElicitResult,
  type InputRequest,
  type RequestOptions,
  type Tool,
} from '@modelcontextprotocol/client';
import { truncate } from '../../blocks/index.js';
import { Continuation, type DurableCall, type Retry } from './continuation.js';
import { isRecord, type FormElicitation, type ParsedElicitation } from './elicitation.js';
import { checkKeptSize, checkRoundBounds, keptRequest, type KeptRequest } from './round-bounds.js';
import { isForm, notAsked, parseRoundRequests, type RoundOf } from './round-requests.js';
import { serverMessage } from './results.js';
import { McpClientError } from './types.js';
import type { RoundRef } from '../relay/types.js';

/** How many times a call is sent again for input before it fails; the spec's suggested default. */
export const DEFAULT_MAX_ROUNDS = 10;

/**
 * Where a call's legs go: the client to send the next one on, resolved just before it is sent (it may be a
 * fresh session's when the call's own connection is gone).
 */
export interface Legs {
  client(): Promise<Client>;
}

/**
 * Answers one entry of a round, as parsed when the round came (checkRequest: only `elicitation/create` is ever
 * declared, so only it is answered); a URL request's id, when the server named none, is given as it is asked.
 */
export type AnswerInput = (
  key: string,
  request: ParsedElicitation,
  round?: RoundRef,
) => Promise<ElicitResult>;

/** Answers a round's form entries (two or more) together, as one question; resolves with each key's answer. */
export type AnswerInputs = (
  entries: [string, FormElicitation][],
  round?: RoundRef,
) => Promise<[string, ElicitResult][]>;

export interface RoundsOptions {
  server: string;
  maxRounds: number;
  /** Per-leg request options (signal, progress); the time people take answering is outside them. */
  request: RequestOptions;
  answer: AnswerInput;
  /** The round's form entries together (#17.4); absent: each is answered alone. */
  answerTogether?: AnswerInputs;
  /** Keep the rounds in the round store (and resume one); absent: in this replica's memory. */
  durable?: DurableCall;
  /** The tool's `inputSchema` as listed, which names the arguments sent again as headers; absent: none. */
  inputSchema?: unknown;
}

/** Runs `tools/call` through as many rounds as the server asks for; resolves with its `CallToolResult`. */
export async function callWithRounds(
  legs: Legs,
  params: { name: string; arguments: Record<string, unknown> },
  opts: RoundsOptions,
): Promise<Record<string, unknown>> {
  const kept = opts.durable === undefined ? undefined : new Continuation(opts.durable);
  let retry: Retry = kept?.resumed() ?? {};
  try {
    for (let round = opts.durable?.resume?.round ?? 0; ; round += 1) {
      const result = await send(legs, { ...params, ...retry }, opts, round, kept);
      if (!isInputRequiredResult(result)) return result;
      if (round >= opts.maxRounds) {
        throw new McpClientError(
          'tool_failed',
          opts.server,
          `${params.name} on ${opts.server} still asked for input after ${rounds(opts.maxRounds)}, the most allowed`,
        );
      }
      retry = await answerRound(result, { round: round + 1, tool: params.name }, opts, kept);
    }
  } finally {
    await kept?.finished();
  }
}

/**
 * Sends the call (or its `round`-th retry); a durable retry holds its claim until it is answered, including
 * while a fresh session opens for it.
 */
async function send(
  legs: Legs,
  params: { [field: string]: unknown; name: string; requestState?: string },
  opts: RoundsOptions,
  round: number,
  kept: Continuation | undefined,
): Promise<Record<string, unknown>> {
  const release = kept?.hold();
  try {
    const client = await legs.client();
    return await client.callTool(params, {
      ...opts.request,
      allowInputRequired: true,
      toolDefinition: headersOnly(params.name, opts.inputSchema),
    });
  } catch (error) {
    // Neither settled nor finished: the call stays unanswered here and its round goes to a survivor.
    if (kept?.leftToSurvivor() === true) return new Promise<never>(() => undefined);
    throw round === 0 ? error : retryRefused(error, params.name, opts.server, round);
  } finally {
    release?.();
  }
}

/**
 * The definition callTool mirrors `Mcp-Param-*` headers from: the listed `inputSchema` only. Given one,
 * the SDK neither reads its own tools/list cache nor checks the result against an `outputSchema` (an
 * `input_required` round carries no structuredContent, so that check would refuse every round of a tool
 * with one); the call's final result is checked against it by the hub instead (tool-run.ts, output-check.ts).
 * Without a listed schema the call goes without headers.
 */
function headersOnly(name: string, inputSchema: unknown): Tool {
  const listed = typeof inputSchema === 'object' && inputSchema !== null;
  // The SDK parsed this schema as a Tool's inputSchema when it listed the tool (results.ts toSummary).
  return { name, inputSchema: listed ? (inputSchema as Tool['inputSchema']) : { type: 'object' } };
}

/** Gathers every answer of round `at.round` (recorded as they come when durable); resolves with the retry. */
async function answerRound(
  result: { inputRequests?: Record<string, InputRequest>; requestState?: string },
  at: RoundOf,
  opts: RoundsOptions,
  kept: Continuation | undefined,
): Promise<Retry> {
  const { round } = at;
  // Before anything is recorded or anyone asked: a round over the client's bounds (a requestState too large to
  // keep, too many requests, a key too long: round-bounds.ts), or with one request the bot cannot ask, can never
  // be answered whole, so asking its other requests would only post cards that the call's failure withdraws.
  checkRoundBounds(result, { server: opts.server, ...at });
  // Each request parsed once, here: the round keeps it and asks it as parsed (round-requests.ts).
  const entries = parseRoundRequests(result.inputRequests ?? {}, at, opts.server);
  const keptRequests = entries.map(([key, parsed]): [string, KeptRequest] => [key, keptRequest(parsed)]);
  checkKeptSize(keptRequests, { server: opts.server, ...at });
  // Recorded even when it asks nothing (retried at once, as the spec allows): the store's record stays the call's
  // current round, so a survivor sends this round's retry, never an earlier one the server already answered.
  await kept?.record(round, result.requestState, keptRequests);
  const together = opts.answerTogether === undefined ? [] : entries.filter(isForm);
  const alone = together.length < 2 ? entries : entries.filter((entry) => !isForm(entry));
  const asked = alone.map((entry) => answeredAlone(entry, at, opts, kept));
  if (together.length >= 2 && opts.answerTogether !== undefined) {
    asked.push(answeredTogether(opts.answerTogether, together, at, opts.server, kept));
  }
  const answers = new Map((await Promise.all(asked)).flat());
  kept?.assertClaimed(round);
  // Keyed as asked, in the order asked.
  const responses = entries.flatMap(([key]) => {
    const answer = answers.get(key);
    return answer === undefined ? [] : [[key, answer] as const];
  });
  return {
    ...(entries.length === 0 ? {} : { inputResponses: Object.fromEntries(responses) }),
    ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
  };
}

/** One entry's answer, recorded (the last one of the round claims). */
async function answeredAlone(
  [key, request]: [string, ParsedElicitation],
  at: RoundOf,
  opts: RoundsOptions,
  kept: Continuation | undefined,
): Promise<[string, ElicitResult][]> {
  const answer = await opts.answer(key, request, kept?.ref(at.round, [key])).catch((error: unknown) => {
    throw notAsked(error, [key], at, opts.server);
  });
  await kept?.answered(at.round, key, answer);
  return [[key, answer]];
}

/** The form entries' one answer, recorded key by key (one answer records all its keys; the last one claims). */
async function answeredTogether(
  answerTogether: AnswerInputs,
  entries: [string, FormElicitation][],
  at: RoundOf,
  server: string,
  kept: Continuation | undefined,
): Promise<[string, ElicitResult][]> {
  const keys = entries.map(([key]) => key);
  const answers = await answerTogether(entries, kept?.ref(at.round, keys)).catch((error: unknown) => {
    throw notAsked(error, keys, at, server);
  });
  for (const [key, answer] of answers) await kept?.answered(at.round, key, answer);
  return answers;
}

const rounds = (n: number): string => (n === 1 ? '1 round' : `${n} rounds`);

/**
 * The `data.reason` with which a server refuses a round's `requestState` (-32602): the SDKs' `requestState.verify`
 * seam answers every state it cannot verify (tampered, or past its TTL, 600 s by default in the SDK's codec,
 * which people answering in Slack easily outlast) with "Invalid or expired requestState" and this reason. The spec
 * names no error for it; -32602 alone is any invalid params (an unknown or disabled tool, answers the server finds
 * malformed), which starting again would not mend.
 */
const STATE_REFUSED = 'invalid_request_state';
/** The most of a server's error message a refused retry shows, in characters. */
export const SERVER_WORDS_MAX = 500;

/**
 * A retry refused with -32602: its requestState (STATE_REFUSED) is said as 'round_expired', so the person can
 * start again; any other invalid params as 'tool_failed' with the server's own words, cut and quoted as its.
 * Anything else is left as it was.
 */
function retryRefused(error: unknown, tool: string, server: string, round: number): unknown {
  const invalidParams: number = ProtocolErrorCode.InvalidParams;
  if (!(error instanceof ProtocolError) || error.code !== invalidParams) return error;
  const answers = `the answers to round ${round} of ${tool}`;
  const options = { cause: error, rpcCode: error.code };
  if (isRecord(error.data) && error.data['reason'] === STATE_REFUSED) {
    return new McpClientError(
      'round_expired',
      server,
      `${server} no longer accepts ${answers}: it says its request state is invalid or expired`,
      options,
    );
  }
  const words = JSON.stringify(truncate(serverMessage(error), SERVER_WORDS_MAX));
  return new McpClientError(
    'tool_failed',
    server,
    `${server} refused ${answers} as invalid params (JSON-RPC -32602); in its words: ${words}`,
    options,
  );
}
