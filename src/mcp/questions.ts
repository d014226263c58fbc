// The questions of one session: the `elicitation/create` requests of a 2025 server and the `inputRequests`
// entries of a 2026 server's rounds, each tied to the session's one call in flight and asked through the
// sink under the server's policy ('form', 'decline', 'off'), withdrawn when the server cancels it or the
// call ends.
import {
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type ClientContext,
  type ElicitResult,
  type RequestId,
} from '@modelcontextprotocol/client';
import { roundLinkId, type CallRun, type WithdrawReason } from './call.js';
import { combineParsedForms } from './round-form.js';
import {
  parseElicitation,
  requireElicitationId,
  RAW_ELICIT_PARAMS,
  RpcRefusal,
  toElicitResult,
  toRpcError,
  type FormElicitation,
  type ParsedElicitation,
  type RelayClient,
} from './elicitation.js';
import {
  McpClientError,
  type ElicitationContext,
  type ElicitationMode,
  type ElicitationSink,
  type IncomingElicitation,
  type McpLogger,
  type McpServerSpec,
  type ServerInfo,
} from './types.js';
import type { Origin, RoundRef } from '../relay/types.js';

/** Sent with -32600 for an elicitation no tool call of this client caused (and no `unsolicited` route). */
export const UNSOLICITED_REFUSAL =
  'No tool call of this client is in flight to ask for: elicitations outside a tool call are refused';

export interface QuestionsOptions {
  spec: McpServerSpec;
  /** The session's person (undefined for the control link). */
  person: Origin | undefined;
  sink: ElicitationSink;
  /** The call in flight on the session, if any. */
  current: () => CallRun | undefined;
  /** Settles when the session has ended. */
  ended: Promise<void>;
  serverInfo: () => ServerInfo | undefined;
  logger?: McpLogger;
}

export class SessionQuestions {
  /**
   * SDK 1.32.2 ignored notifications/cancelled for request id 0 (a server's first request on a
   * connection), so cancellation is tracked here, for every id; the withdraw reason is the relay's own.
   */
  private readonly cancels = new Map<RequestId, AbortController>();

  constructor(private readonly opts: QuestionsOptions) {}

  private get mode(): ElicitationMode {
    return this.opts.spec.elicitationMode ?? 'form';
  }

  /**
   * With mode 'off' no elicitation handler exists, so the SDK answers a request anyway with -32601.
   * Completion notifications only matter when the sink was asked, i.e. in mode 'form'.
   */
  register(client: RelayClient): void {
    const mode = this.mode;
    client.setNotificationHandler('notifications/cancelled', ({ params }) => {
      const withdrawn: WithdrawReason = 'withdrawn';
      if (params.requestId !== undefined) this.cancels.get(params.requestId)?.abort(withdrawn);
    });
    if (mode === 'off') return;
    client.setRequestHandler('elicitation/create', RAW_ELICIT_PARAMS, async (params, ctx) => {
      requireElicitationId(params);
      this.refuseIdInUse(ctx.mcpReq.id);
      if (mode === 'decline') return this.decline(params);
      const run = this.runFor(relatedTask(ctx));
      return this.answer(parseElicitation(params), ctx.mcpReq.id, ctx.mcpReq.signal, run);
    });
    if (mode !== 'form') return;
    client.setNotificationHandler('notifications/elicitation/complete', ({ params }) =>
      this.completed(params.elicitationId),
    );
  }

  /**
   * One entry of a 2026 round (parsed, and so valid, when the round came: rounds.ts), a question of `run` like a
   * 2025 `elicitation/create` (policy included).
   */
  async answerInput(
    request: ParsedElicitation,
    key: string,
    run: CallRun,
    round?: RoundRef,
  ): Promise<ElicitResult> {
    const mode = this.mode;
    if (mode === 'off') {
      const server = this.opts.spec.name;
      throw new McpClientError(
        'tool_failed',
        server,
        `${server} asked a question, but its elicitation is off`,
      );
    }
    if (mode === 'decline') return { action: 'decline' };
    return this.answer(linked(request, key, run, round), key, run.signal, run, round);
  }

  /**
   * Several form entries of one 2026 round (`[key, request]`), asked as one form with a section each when they
   * fit one (round-form.ts), else each alone; resolves with each key's answer.
   */
  async answerInputs(
    entries: [string, FormElicitation][],
    run: CallRun,
    round?: RoundRef,
  ): Promise<[string, ElicitResult][]> {
    const combined = this.mode === 'form' ? combineParsedForms(entries) : undefined;
    if (combined === undefined) {
      return Promise.all(
        entries.map(async ([key, request]) => {
          const single = round === undefined ? undefined : { ...round, keys: [key] };
          return [key, await this.answerInput(request, key, run, single)] as const;
        }),
      );
    }
    const id = entries.map(([key]) => key).join('\n');
    return combined.split(await this.answer(combined.request, id, run.signal, run, round));
  }

  /**
   * A request under the id of one not answered yet (a session's ids must not be reused, spec "Requests"): asked
   * as well, the person would get the question twice and the server two answers it cannot tell apart, and the
   * first question could no longer be cancelled by its id. Refused with -32600; the first goes on untouched.
   */
  private refuseIdInUse(id: RequestId): void {
    if (!this.cancels.has(id)) return;
    throw new RpcRefusal(
      ProtocolErrorCode.InvalidRequest,
      `Invalid request: id ${JSON.stringify(id)} belongs to an elicitation not answered yet`,
    );
  }

  /** Policy 'decline': still -32602 for an invalid request (parseElicitation throws), else decline. */
  private decline(params: unknown): Promise<{ action: 'decline' }> {
    parseElicitation(params);
    return Promise.resolve({ action: 'decline' });
  }

  /**
   * The call an elicitation belongs to: the one in flight (a session runs one at a time), unless the request
   * names a task (related-task metadata) that is not that call's, which makes it nobody's call.
   */
  private runFor(taskId: string | undefined): CallRun | undefined {
    const run = this.opts.current();
    if (taskId === undefined || run?.taskId === undefined || run.taskId === taskId) return run;
    return undefined;
  }

  /** `run` ended: the sink learns that its 2026 URL requests are settled (their cards can show the end). */
  callEnded(run: CallRun): void {
    if (run.links.size === 0) return;
    const ctx = { server: this.opts.spec.name, origin: run.origin };
    try {
      this.opts.sink.linksSettled?.([...run.links], ctx);
    } catch (error) {
      this.opts.logger?.warn({ ...ctx, err: error }, 'URL requests not settled in sink');
    }
  }

  private completed(elicitationId: string): void {
    const origin = this.opts.current()?.origin ?? this.opts.person;
    if (origin === undefined) return;
    const ctx = { server: this.opts.spec.name, origin };
    try {
      this.opts.sink.complete?.(elicitationId, ctx);
    } catch (error) {
      this.opts.logger?.warn({ ...ctx, elicitationId, err: error }, 'elicitation complete failed in sink');
    }
  }

  /**
   * One question, parsed: a 2025 server's `elicitation/create` (`id` its JSON-RPC id, `connection` aborting
   * when the connection ends), or one `inputRequests` entry of a 2026 round (`id` its key, see rounds.ts), whose
   * `connection` is its call's signal: the round outlives a lost connection, its retry going on a fresh
   * session (tool-run.ts), so its question is not withdrawn with the connection.
   */
  private async answer(
    request: IncomingElicitation,
    id: RequestId,
    connection: AbortSignal,
    run: CallRun | undefined,
    round?: RoundRef,
  ) {
    // No call of ours caused it: the session's person (whoever called last) did not ask, so it is not theirs.
    const origin = run?.origin ?? this.opts.spec.unsolicitedTo;
    if (origin === undefined) {
      this.opts.logger?.warn({ server: this.opts.spec.name }, 'elicitation outside any tool call: refused');
      throw new RpcRefusal(ProtocolErrorCode.InvalidRequest, UNSOLICITED_REFUSAL);
    }
    const withdraw = new AbortController();
    this.cancels.set(id, withdraw);
    const onConnectionClosed = (): void => withdraw.abort('call_ended' satisfies WithdrawReason);
    connection.addEventListener('abort', onConnectionClosed, { once: true });
    const questionEnded = run?.questionOpened(withdraw);
    const ctx = { ...this.context(origin, run, withdraw.signal), ...(round === undefined ? {} : { round }) };
    let answered: { result: ElicitResult } | { error: unknown };
    try {
      answered = await this.askSink(request, ctx);
    } finally {
      // The question is over for the call before any wait below: its silence watchdog runs again.
      this.cancels.delete(id);
      connection.removeEventListener('abort', onConnectionClosed);
      questionEnded?.();
    }
    await this.unlessWithdrawn(withdraw.signal);
    if ('error' in answered) throw toRpcError(answered.error);
    return answered.result;
  }

  /** The sink's answer to `request` as the server is sent it, or why there is none (logged). */
  private async askSink(
    request: IncomingElicitation,
    ctx: ElicitationContext,
  ): Promise<{ result: ElicitResult } | { error: unknown }> {
    try {
      const outcome = await this.opts.sink.ask(request, ctx);
      const schema = request.mode === 'form' ? request.requestedSchema : undefined;
      return { result: toElicitResult(outcome, request.mode, schema) };
    } catch (error) {
      this.opts.logger?.warn(
        { server: ctx.server, userId: ctx.origin.userId, err: error },
        'elicitation sink failed',
      );
      return { error };
    }
  }

  /** No response to a request the server cancelled (spec): wait until the session ends instead. */
  private async unlessWithdrawn(signal: AbortSignal): Promise<void> {
    if (signal.aborted && signal.reason === ('withdrawn' satisfies WithdrawReason)) await this.opts.ended;
  }

  private context(origin: Origin, run: CallRun | undefined, signal: AbortSignal): ElicitationContext {
    const configured = this.opts.spec.elicitationTimeoutMs;
    const serverInfo = this.opts.serverInfo();
    return {
      server: this.opts.spec.name,
      origin,
      signal,
      timeoutMs: run ? run.questionTimeout(configured) : configured,
      ...(serverInfo === undefined ? {} : { serverInfo }),
    };
  }
}

/**
 * A 2026 round's request as asked: a URL request that named no `elicitationId` gets the hub's, made from the
 * round's continuation id (known now that the round is recorded) or else the call's own (call.ts roundLinkId),
 * and the call keeps it, so that its end settles the request's card (callEnded).
 */
function linked(
  request: ParsedElicitation,
  key: string,
  run: CallRun,
  round?: RoundRef,
): IncomingElicitation {
  if (request.mode === 'form') return request;
  if (request.elicitationId !== undefined) return { ...request, elicitationId: request.elicitationId };
  const elicitationId = roundLinkId(round?.id ?? run.id, key);
  run.links.add(elicitationId);
  return { ...request, elicitationId };
}

/** The task a request says it belongs to (related-task metadata of revision 2025-11-25). */
function relatedTask(ctx: ClientContext): string | undefined {
  const related: unknown = ctx.mcpReq._meta?.[RELATED_TASK_META_KEY];
  if (typeof related !== 'object' || related === null || !('taskId' in related)) return undefined;
  return typeof related.taskId === 'string' ? related.taskId : undefined;
}
