// How one tool call runs on a session's client: task-augmented (revision 2025-11-25, tasks.ts) when the tool
// must be or may be and the server runs tool calls as tasks; else a plain `tools/call`, whose 2026-07-28 input
// rounds the hub answers itself (rounds.ts), kept in the round store when the call is durable (continuation.ts).
//
// A round's answers can take people minutes, and the session's connection may be lost meanwhile (its stdio
// process died, its Streamable HTTP session was lost). A 2026 server keeps nothing between a call's legs (the
// retry carries the requestState and the answers, and any connection may carry it), so the retry goes on a
// fresh session of the same person, leased from the pool for the rest of the call (RoundLegs), as a survivor
// replica sends a durable round's retry (src/rounds/take-over.ts), instead of failing on the closed connection
// after the people did the work. A server that no longer accepts the state then says so (round_expired).
import type { Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { TOOL_TIMEOUT_MARGIN_MS, type CallRun } from './call.js';
import { uncheckedDefinition, type OutputCheck, type OutputChecks } from './output-check.js';
import type { Clock } from '../clock.js';
import type { DurableCall } from './continuation.js';
import type { RelayClient } from './elicitation.js';
import type { LeavingRounds } from './leaving-rounds.js';
import type { SessionQuestions } from './questions.js';
import { toToolResult } from './results.js';
import { callWithRounds, DEFAULT_MAX_ROUNDS, type Legs, type RoundsOptions } from './rounds.js';
import { cancelToolTask, runToolTask } from './tasks.js';
import {
  McpClientError,
  type McpLogger,
  type McpServerSpec,
  type ResumedRound,
  type ToolCall,
  type ToolResult,
  type ToolSummary,
} from './types.js';

/** The SDK's per-request timeout is replaced by the call's own timers (call.ts); 2^31 - 1 ms is its ceiling. */
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

export interface ToolRunnerOptions {
  client: RelayClient;
  spec: McpServerSpec;
  clock: Clock;
  /**
   * The server's compiled outputSchemas: a call's structuredContent is checked against its tool's; the server's
   * listing refuses a tool whose outputSchema they cannot compile (tool-listing.ts).
   */
  outputs: OutputChecks;
  /** Asks the people a 2026 round's input requests are for. */
  questions: Pick<SessionQuestions, 'answerInput' | 'answerInputs'>;
  /** Where durable calls keep their 2026 rounds (McpHubOptions.rounds). */
  rounds?: LeavingRounds;
  logger?: McpLogger;
  /** The session has closed: an abandoned task is not cancelled on it any more, and a 2026 leg goes elsewhere. */
  isClosed: () => boolean;
  /** A fresh session for the rest of a 2026 call whose own connection is gone (its pool's; pool.ts). */
  successor: (signal: AbortSignal) => Promise<Successor>;
}

export class ToolRunner {
  constructor(private readonly opts: ToolRunnerOptions) {}

  /**
   * Runs `call` as `run` (its timers and signal); rejects with what the SDK threw. `definition`: the tool as
   * listed, whose outputSchema the call's final result is checked against, plain or as a task.
   */
  async run(
    call: ToolCall,
    run: CallRun,
    tool: ToolSummary | undefined,
    definition?: Tool,
  ): Promise<ToolResult> {
    if (call.resume !== undefined && this.opts.client.getProtocolEra() !== 'modern') {
      return this.cannotResume(call, call.resume);
    }
    // The listed definition's outputSchema is checked here (output-check.ts), on whichever session runs the call
    // (the SDK's own tools/list cache is the listing connection's only, and a lenient listing fills none), on
    // either era and either way of running it; one that cannot be compiled refuses the tool before anything is sent.
    const check =
      definition === undefined ? undefined : this.opts.outputs.checkFor(definition, this.opts.spec.name);
    if (this.asTask(tool)) return await this.runTask(call, run, check);
    return await this.runPlain(call, run, tool, definition, check);
  }

  /**
   * A round taken over on a connection that negotiated a 2025 era (the server was rolled back, or judged legacy):
   * its retry (requestState and the recorded answers) has no place there, and running the tool afresh would act
   * without the answers people gave. The round is dropped and the call fails 'round_expired', as a successor
   * session to a 2025 server does (McpSession.lend), so the person may start again.
   */
  private async cannotResume(call: ToolCall, resume: ResumedRound): Promise<never> {
    await this.opts.rounds?.finished(resume.id);
    const server = this.opts.spec.name;
    throw new McpClientError(
      'round_expired',
      server,
      `${server} no longer speaks revision 2026-07-28: round ${resume.round} of ${call.tool} cannot be sent again`,
    );
  }

  private requestOptions(run: CallRun): RequestOptions {
    return {
      timeout: NO_SDK_TIMEOUT_MS,
      signal: run.signal,
      // Also makes the SDK send a progressToken; without a handler servers send no progress.
      onprogress: (update) => run.progress(update),
    };
  }

  private async runPlain(
    call: ToolCall,
    run: CallRun,
    tool: ToolSummary | undefined,
    definition: Tool | undefined,
    check: OutputCheck | undefined,
  ): Promise<ToolResult> {
    const { client } = this.opts;
    const params = { name: call.tool, arguments: call.args };
    if (client.getProtocolEra() !== 'modern') {
      // Handed the definition without it, the SDK checks nothing and reads no cache of its own.
      const unchecked = definition === undefined ? {} : { toolDefinition: uncheckedDefinition(definition) };
      const result = await client.callTool(params, { ...this.requestOptions(run), ...unchecked });
      check?.(result);
      return toToolResult(result);
    }
    const legs = new RoundLegs(client, this.opts, run.signal);
    try {
      // Only the final result: an input_required round's carries no structuredContent (rounds.ts). A resumed
      // round's call (a survivor's take-over, ToolCall.resume) ends here too, so its result is checked alike.
      const result = await callWithRounds(legs, params, this.roundsOptions(call, run, tool));
      check?.(result);
      return toToolResult(result);
    } finally {
      legs.done();
    }
  }

  private roundsOptions(call: ToolCall, run: CallRun, tool: ToolSummary | undefined): RoundsOptions {
    const { questions } = this.opts;
    const durable = this.durable(call);
    return {
      server: this.opts.spec.name,
      maxRounds: this.opts.spec.maxRounds ?? DEFAULT_MAX_ROUNDS,
      request: this.requestOptions(run),
      answer: (key, request, round) => questions.answerInput(request, key, run, round),
      answerTogether: (entries, round) => questions.answerInputs(entries, run, round),
      ...(durable === undefined ? {} : { durable }),
      ...(tool === undefined ? {} : { inputSchema: tool.inputSchema }),
    };
  }

  /** A durable call's rounds in the round store; a new round's answers are waited for as long as a question. */
  private durable(call: ToolCall): DurableCall | undefined {
    const { rounds, spec, clock } = this.opts;
    if (rounds === undefined || (call.durable !== true && call.resume === undefined)) return undefined;
    return {
      rounds,
      call: { server: spec.name, tool: call.tool, args: call.args, origin: call.origin },
      deadline: () => clock.now() + spec.elicitationTimeoutMs + TOOL_TIMEOUT_MARGIN_MS,
      ...(call.resume === undefined ? {} : { resume: call.resume }),
    };
  }

  /**
   * Task-augmented (revision 2025-11-25, see tasks.ts); the task is cancelled when the call is abandoned. Its
   * result comes by `tasks/result`, which the SDK reads as any request's result, checking no outputSchema: it is
   * checked here, as a plain call's is.
   */
  private async runTask(call: ToolCall, run: CallRun, check: OutputCheck | undefined): Promise<ToolResult> {
    const params = { name: call.tool, arguments: call.args };
    const onAbort = (): void => this.cancelTask(run.taskId);
    run.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const options = { ...this.requestOptions(run), signal: run.signal };
      const result = await runToolTask(this.opts.client, params, options, this.opts.clock, {
        created: (taskId) => (run.taskId = taskId),
        status: (message) => run.taskStatus(message),
      });
      check?.(result);
      return toToolResult(result);
    } finally {
      run.signal.removeEventListener('abort', onAbort);
    }
  }

  private cancelTask(taskId: string | undefined): void {
    if (taskId === undefined || this.opts.isClosed()) return;
    cancelToolTask(this.opts.client, taskId).catch((error: unknown) => {
      this.opts.logger?.debug({ server: this.opts.spec.name, taskId, err: error }, 'tasks/cancel failed');
    });
  }

  /** As a task when the tool must be, or may be and the server runs tool calls as tasks. */
  private asTask(tool: ToolSummary | undefined): boolean {
    if (tool?.taskSupport === 'required') return true;
    const supported = this.opts.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
    return tool?.taskSupport === 'optional' && supported;
  }
}

/**
 * Another session's connection lent for the rest of one 2026 call whose own connection is gone: its legs go on
 * `client`; `release` gives the session back to its pool when the call ends (pool.ts).
 */
export interface Successor {
  client: RelayClient;
  isClosed: () => boolean;
  release: () => void;
}

/**
 * The connection a 2026 call's legs go on: the session's own while it is open; once it is gone, a fresh
 * session's (a further one if that one is lost too), given back to the pool when the call ends. Only a leg not
 * yet sent moves: one lost in flight fails the call as before, since the server may have run it.
 */
class RoundLegs implements Legs {
  private lent: Successor | undefined;

  constructor(
    private readonly own: RelayClient,
    private readonly session: Pick<ToolRunnerOptions, 'isClosed' | 'successor'>,
    private readonly signal: AbortSignal,
  ) {}

  async client(): Promise<Client> {
    if (!this.session.isClosed()) return this.own;
    if (this.lent !== undefined && !this.lent.isClosed()) return this.lent.client;
    this.done();
    this.lent = await this.session.successor(this.signal);
    return this.lent.client;
  }

  /** The call is over: the fresh session, if any, goes back to the pool. */
  done(): void {
    this.lent?.release();
    this.lent = undefined;
  }
}
