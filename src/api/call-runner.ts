// Runs API calls on a person's behalf through the same path as `/mcp run` (the Slack side's tool run: their DM
// or the server's route, the same progress message and result post), and ends each call once: with the
// tool's result, with the error that stopped it, or, when the replica running it is gone, as failed by a
// survivor's sweep (its holder's lease lapsed), so that no call stays `running` forever. A call waiting in a
// durable 2026 round (src/rounds) is the round's: the sweep leaves it, and the replica that resumes the round
// adopts the call (becomes its holder) and ends it with the retry's result.
import type { AuditSource, AuditedCall } from '../audit/index.js';
import type { RelayClock } from '../relay/relay.js';
import type { Origin, Question } from '../relay/types.js';
import type { CallEnd, CallRecord, CallStore, NewCall } from './call-store.js';
import { wholeResult, type ResumedRound } from '../mcp/index.js';
import { repeatEvery } from '../repeat.js';
import { withServingOrgOrWithout, type ServingOrg } from './workspace.js';

/** Time between sweeps for calls whose replica is gone, ms: the question store's orphan sweep interval. */
export const CALL_SWEEP_EVERY_MS = 5_000;

/** A tool's answer as the MCP side hands it over (src/mcp ToolResult). */
export interface ToolAnswer {
  isError: boolean;
  text: string;
  structured?: unknown;
  /** The whole CallToolResult as the server returned it; absent when the server sent none. */
  callResult?: Record<string, unknown>;
}

/** A tool run as `/mcp run` makes it; `resume` when it starts with the retry of a round taken over. */
export interface ApiToolRun {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  origin: Origin;
  resume?: ResumedRound;
}

export interface CallRunnerDeps {
  store: Pick<CallStore, 'create' | 'finish' | 'addQuestion' | 'orphaned' | 'get' | 'adopt'>;
  /** `/mcp run`'s own run: posts the progress and the result in the person's place, resolves with the result. */
  runTool(run: ApiToolRun): Promise<ToolAnswer>;
  /**
   * Whether the call waits in an open durable round (the round store's `ofCall`): a survivor resumes it, so
   * neither the sweep nor stop() fails the call. Absent: no call does.
   */
  inRound?: (callId: string) => Promise<boolean>;
  /** The org whose org-wide installation serves a call's workspace (kept in its origin); absent: none does. */
  servingOrg?: ServingOrg;
  audit: {
    callCreated(call: AuditedCall, source: AuditSource): Promise<void>;
    callEnded(
      call: AuditedCall & { status: 'completed' | 'failed'; endedAt: number },
      source: AuditSource,
    ): Promise<void>;
  };
  clock: RelayClock;
  logger: { warn(obj: object, msg: string): void };
}

export class CallRunner {
  /** Calls this replica runs, so stop() can end them. */
  private readonly running = new Map<string, CallRecord>();

  constructor(private readonly deps: CallRunnerDeps) {}

  /** Stores the call and starts it in the background; resolves with the stored record. */
  async start(call: NewCall, args: Record<string, unknown>): Promise<CallRecord> {
    const record = await this.deps.store.create(call);
    void this.deps.audit.callCreated(audited(record), sourceOf(record));
    this.running.set(record.id, record);
    const started = async (): Promise<void> => {
      const origin = await this.originOf(record);
      await this.run(record, { server: record.server, tool: record.tool, args, origin });
    };
    void started().finally(() => this.running.delete(record.id));
    return record;
  }

  /**
   * The person, their workspace and the org serving it (the org leaving ends the call's questions), and the call.
   * The org not known (Redis or Slack failing to tell) is no reason not to run: logged, the call runs without it.
   */
  private async originOf(record: CallRecord): Promise<Origin> {
    const workspace = record.team === undefined ? {} : { teamId: record.team };
    const serving = await withServingOrgOrWithout(workspace, this.deps, { callId: record.id });
    return { userId: record.user, ...serving, callId: record.id };
  }

  /** The relay's observer hook: a question that a call caused is listed on the call. */
  questionCreated(question: Question): void {
    const { callId } = question.origin;
    if (callId === undefined) return;
    this.deps.store.addQuestion(callId, question.id).catch((err: unknown) => {
      this.deps.logger.warn({ err, callId, questionId: question.id }, 'question not listed on its call');
    });
  }

  /**
   * One sweep: every running call whose replica's lease lapsed ends failed, saying so, unless it waits in a
   * durable round. The end holds only while the call keeps that dead holder: a replica resuming its round
   * adopts it first, so a round that finishes between the two reads here never fails its call.
   */
  async sweep(): Promise<void> {
    for (const call of await this.deps.store.orphaned()) {
      if (await this.inRound(call.id)) continue;
      const error = `The bot replica running this call (${call.holder}) stopped before the tool answered.`;
      await this.end(call, { status: 'failed', error }, call.holder);
    }
  }

  /**
   * Resumes a call from its durable round, taken over by this replica (the take-over sweep, or the answer that
   * completed the round): the call becomes this replica's, and ends here with the retry's result.
   */
  async resume(run: ApiToolRun & { resume: ResumedRound }): Promise<void> {
    const { callId } = run.origin;
    const call = callId === undefined ? undefined : await this.deps.store.get(callId);
    // Its record gone or ended (it expired, or was ended before the round was taken over): the round still
    // runs to its end, so that the person sees the result and the continuation goes.
    if (call === undefined || !(await this.deps.store.adopt(call.id))) {
      await this.deps.runTool(run);
      return;
    }
    this.running.set(call.id, call);
    await this.run(call, run).finally(() => this.running.delete(call.id));
  }

  /** Sweeps every CALL_SWEEP_EVERY_MS until the returned stop() (which waits for a sweep in progress). */
  startSweep(everyMs = CALL_SWEEP_EVERY_MS): () => Promise<void> {
    return repeatEvery(
      this.deps.clock,
      everyMs,
      () => this.sweep(),
      (err) => this.deps.logger.warn({ err }, 'calls of stopped replicas not swept'),
    );
  }

  /**
   * This replica stops: the calls it still runs end failed now rather than at a survivor's sweep, except
   * those waiting in a durable round, which a survivor resumes.
   */
  async stop(): Promise<void> {
    const error = 'The bot replica running this call stopped before the tool answered.';
    const running = [...this.running.values()];
    await Promise.all(
      running.map(async (call) => {
        if (!(await this.inRound(call.id))) await this.end(call, { status: 'failed', error });
      }),
    );
  }

  private inRound(callId: string): Promise<boolean> {
    return this.deps.inRound?.(callId) ?? Promise.resolve(false);
  }

  /** Runs the call's tool and ends the call with what it answered. */
  private async run(call: CallRecord, run: ApiToolRun): Promise<void> {
    let end: CallEnd;
    try {
      const answer = await this.deps.runTool(run);
      // The server's own result is kept whole; a failure the hub reported in words becomes a text result.
      const result = wholeResult(answer);
      end = answer.isError
        ? { status: 'failed', error: answer.text || 'The tool reported an error.', result }
        : { status: 'completed', result };
    } catch (err) {
      end = { status: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
    await this.end(call, end).catch((err: unknown) => {
      this.deps.logger.warn({ err, callId: call.id }, 'call end not recorded; a survivor sweep will end it');
    });
  }

  private async end(call: CallRecord, end: CallEnd, holder?: string): Promise<void> {
    if (!(await this.deps.store.finish(call.id, end, holder))) return;
    const ended = { ...audited(call), status: end.status, endedAt: this.deps.clock.now() };
    void this.deps.audit.callEnded(ended, sourceOf(call));
  }
}

const audited = (call: CallRecord): AuditedCall => ({
  id: call.id,
  server: call.server,
  tool: call.tool,
  createdAt: call.createdAt,
});

const sourceOf = (call: CallRecord): AuditSource => ({ kind: 'api', client: call.client, user: call.user });
