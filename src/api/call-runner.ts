// Runs API calls on a person's behalf through the same path as `/mcp run` (the Slack side's tool run: their DM
// or the server's route, the same progress message and result post), and ends each call once: with the
// tool's result, with the error that stopped it, or, when the replica running it is gone, as failed by a
// survivor's sweep (its holder's lease lapsed), so that no call stays `running` forever.
import type { AuditSource, AuditedCall } from '../audit/index.js';
import type { RelayClock } from '../relay/relay.js';
import type { Origin, Question } from '../relay/types.js';
import type { CallEnd, CallRecord, CallStore, NewCall } from './call-store.js';
import { wholeResult } from '../mcp/index.js';
import { repeatEvery } from './repeat.js';

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

export interface CallRunnerDeps {
  store: Pick<CallStore, 'create' | 'finish' | 'addQuestion' | 'orphaned'>;
  /** `/mcp run`'s own run: posts the progress and the result in the person's place, resolves with the result. */
  runTool(run: {
    server: string;
    tool: string;
    args: Record<string, unknown>;
    origin: Origin;
  }): Promise<ToolAnswer>;
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
    void this.run(record, args).finally(() => this.running.delete(record.id));
    return record;
  }

  /** The relay's observer hook: a question that a call caused is listed on the call. */
  questionCreated(question: Question): void {
    const { callId } = question.origin;
    if (callId === undefined) return;
    this.deps.store.addQuestion(callId, question.id).catch((err: unknown) => {
      this.deps.logger.warn({ err, callId, questionId: question.id }, 'question not listed on its call');
    });
  }

  /** One sweep: every running call whose replica's lease lapsed ends failed, saying so. */
  async sweep(): Promise<void> {
    for (const call of await this.deps.store.orphaned()) {
      const error = `The bot replica running this call (${call.holder}) stopped before the tool answered.`;
      await this.end(call, { status: 'failed', error });
    }
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

  /** This replica stops: the calls it still runs end failed now rather than at a survivor's sweep. */
  async stop(): Promise<void> {
    const error = 'The bot replica running this call stopped before the tool answered.';
    await Promise.all([...this.running.values()].map((call) => this.end(call, { status: 'failed', error })));
  }

  private async run(call: CallRecord, args: Record<string, unknown>): Promise<void> {
    const workspace = call.team === undefined ? {} : { teamId: call.team };
    const origin: Origin = { userId: call.user, ...workspace, callId: call.id };
    let end: CallEnd;
    try {
      const answer = await this.deps.runTool({ server: call.server, tool: call.tool, args, origin });
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

  private async end(call: CallRecord, end: CallEnd): Promise<void> {
    if (!(await this.deps.store.finish(call.id, end))) return;
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
