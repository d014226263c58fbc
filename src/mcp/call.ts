// One tool call in flight on a session: who made it, its timers, its task, and the questions it caused.
//
// Timeouts. The SDK's own request timeout counts the time a person spends answering an elicitation of the
// call, so a slow answer (or a second question of the same call) could kill the call after the person did
// the work. Instead the call has a *silence* watchdog: it fails with 'timeout' after `silenceMs` without
// any sign of life from the server (progress, task status, a new elicitation), and it is paused while a
// question the call caused is open. The caller may also give the call a hard `timeoutMs` (an automation's
// deadline); the questions the call causes are never given longer than what is left of it. Without one, signs of
// life stop counting once the call has worked WORKING_MAX_MS (a server sending progress forever).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { ProgressUpdate, ToolCall } from './types.js';
import type { Origin } from '../relay/types.js';

/** Added to the server's elicitation timeout to make a call's silence limit, in milliseconds. */
export const TOOL_TIMEOUT_MARGIN_MS = 30_000;
/** The shortest time a question is given, even when the call's deadline is closer, in milliseconds. */
export const MIN_QUESTION_MS = 1000;
/**
 * How long a call with no deadline of its own (a person's `/mcp run`) may work, in milliseconds (24 h): the time
 * it is out with no question of it open, from its start. Each progress notification and each `tasks/get` answer
 * is a sign of life that re-arms the silence watchdog, so a server that keeps reporting progress (a plain call) or
 * keeps its task `working` (its `ttl` null, or renewed) kept the call, its session and its "working…" message alive
 * forever, and the person has no way to cancel a run. Past this, progress and status no longer count: the call
 * fails as timed out, naming this limit (and a task is cancelled), at the next of them. 24 h is the working limit
 * tasks had before plain calls got it, one bound for both ways of running the same long job; a caller's
 * timeoutMs bounds its call instead, and time people spend answering the call's questions is not work.
 * (Not the SDK's `maxTotalTimeout`: the hub sets no SDK timeout at all (tool-run.ts), since the SDK's clock is
 * not the injected one and its total counts the time people answer a 2025 call's questions.)
 */
export const WORKING_MAX_MS = 24 * 3_600_000;

/**
 * Why the questions of a call were withdrawn, as the `reason` of their context signal (the relay's
 * EndReason words): 'withdrawn' = the server cancelled the request; 'call_ended' = the call that caused it
 * ended (result, error, timeout, abort) or its connection closed.
 */
export type WithdrawReason = 'withdrawn' | 'call_ended';

/**
 * The id the hub gives a 2026 URL request (which has none): `mrtr:<call>:<key>`, the same in every round of one
 * call. `callId` is a durable call's continuation id (the same on whichever replica asks the round), else the
 * run's own.
 */
export const roundLinkId = (callId: string, key: string): string => `mrtr:${callId}:${key}`;

export class CallRun {
  /** Names a call that keeps no durable rounds in its 2026 URL requests' ids (see roundLinkId). */
  readonly id = randomUUID();
  /**
   * The ids of the 2026 URL requests this call asked (a resumed call: those its round may have asked on the
   * replica that asked it): the sink learns they are settled when the call ends.
   */
  readonly links: Set<string>;
  readonly origin: Origin;
  /** The task the server created for this call (task-augmented calls only). */
  taskId: string | undefined;
  /** Aborts when the caller aborts or a timer expires: the SDK request's signal. */
  readonly signal: AbortSignal;
  private readonly expiry = new AbortController();
  /**
   * The withdraw controllers of this call's open questions, aborted when the call ends. A set rather than one
   * 'abort' listener per question on a shared signal: a call that opens more than 10 questions made Node warn
   * MaxListenersExceededWarning (issue 15.13).
   */
  private readonly open = new Set<AbortController>();
  private over = false;
  private readonly deadline: number | undefined;
  private cancelSilence: () => void = () => undefined;
  private cancelDeadline: () => void = () => undefined;
  private lastProgress = 0;
  /** The ms the call worked (out with no question open) before `workingFrom`. */
  private workedMs = 0;
  /** When the call's current stretch with no question open began, epoch ms; undefined while one is open. */
  private workingFrom: number | undefined;
  /** Set once the call worked WORKING_MAX_MS: its timeout names that limit. */
  private overworked = false;

  constructor(
    private readonly call: ToolCall,
    private readonly silenceMs: number,
    private readonly clock: Clock,
  ) {
    this.origin = { ...call.origin };
    const resumed = call.resume;
    this.links = new Set(
      Object.keys(resumed?.answers ?? {}).map((key) => roundLinkId(resumed?.id ?? '', key)),
    );
    this.signal = call.signal ? AbortSignal.any([call.signal, this.expiry.signal]) : this.expiry.signal;
    this.workingFrom = clock.now();
    if (call.timeoutMs !== undefined) {
      this.deadline = clock.now() + call.timeoutMs;
      this.cancelDeadline = clock.schedule(() => this.expire(), call.timeoutMs);
    }
    this.armSilence();
  }

  /** True when the call failed because a timer expired (not because the caller aborted it). */
  get timedOut(): boolean {
    return this.expiry.signal.aborted;
  }

  /** Why a timed-out call timed out, when a limit other than silence or its own deadline ended it. */
  get timeoutReason(): string | undefined {
    if (!this.overworked) return undefined;
    return `it worked ${WORKING_MAX_MS / 3_600_000} h without a result, the most a call without a deadline of its own may`;
  }

  /** True when the caller's own signal aborted the call. */
  get abortedByCaller(): boolean {
    return this.call.signal?.aborted === true && !this.timedOut;
  }

  /** A progress notification: a sign of life, and news for the caller. */
  progress(update: ProgressUpdate): void {
    if (this.overdue()) return this.expireOverworked();
    this.lastProgress = update.progress;
    this.armSilence();
    this.call.onProgress?.({
      progress: update.progress,
      ...(update.total === undefined ? {} : { total: update.total }),
      ...(update.message === undefined ? {} : { message: update.message }),
    });
  }

  /** A task status: a sign of life; its message reaches the caller with the latest progress value. */
  taskStatus(message: string | undefined): void {
    if (this.overdue()) return this.expireOverworked();
    this.armSilence();
    if (message !== undefined) this.call.onProgress?.({ progress: this.lastProgress, message });
  }

  /** How long a question of this call may stay open: `configured`, capped by the call's deadline. */
  questionTimeout(configured: number): number {
    if (this.deadline === undefined) return configured;
    return Math.max(MIN_QUESTION_MS, Math.min(configured, this.deadline - this.clock.now()));
  }

  /**
   * A question of this call opens: the silence watchdog pauses until every open question has ended, and
   * `withdraw` aborts with 'call_ended' if the call ends first. Call the returned function when it ends.
   */
  questionOpened(withdraw: AbortController): () => void {
    if (this.workingFrom !== undefined) this.workedMs += this.clock.now() - this.workingFrom;
    this.workingFrom = undefined;
    this.open.add(withdraw);
    this.cancelSilence();
    return () => {
      this.open.delete(withdraw);
      if (this.open.size === 0) this.workingFrom ??= this.clock.now();
      this.armSilence();
    };
  }

  /** The call is over, whatever the outcome: its timers stop and its open questions are withdrawn. */
  end(): void {
    this.over = true;
    this.cancelSilence();
    this.cancelDeadline();
    for (const withdraw of this.open) withdraw.abort('call_ended' satisfies WithdrawReason);
  }

  /**
   * The call has worked WORKING_MAX_MS and has no deadline of its own (a caller's timeoutMs bounds it instead,
   * however long) and no question open (a person answering is not the server stalling).
   */
  private overdue(): boolean {
    if (this.deadline !== undefined || this.workingFrom === undefined) return false;
    return this.workedMs + this.clock.now() - this.workingFrom >= WORKING_MAX_MS;
  }

  private expireOverworked(): void {
    if (!this.over && !this.timedOut) this.overworked = true;
    this.expire();
  }

  private armSilence(): void {
    this.cancelSilence();
    if (this.open.size > 0 || this.over) return;
    this.cancelSilence = this.clock.schedule(() => this.expire(), this.silenceMs);
  }

  private expire(): void {
    if (!this.over) this.expiry.abort('timeout');
  }
}
