// The worker's side of the outbox: one run of a queued Slack call. It gives up past the call's deadline,
// keeps to the limit's calls as actually made (conform), makes the call, and sorts a failure into a retry
// after Retry-After, a retry with backoff, or a final result; a settled call keeps only its result.
import { DelayedError, type Job } from 'bullmq';
import type { QueueWakes, StoreLogger } from '../../redis/index.js';
import { RelayError } from '../../relay/errors.js';
import type { Pace, PacedCall, Pacer } from './pacing.js';
import {
  OUTBOX_DEFAULT_DEADLINE_MS,
  OUTBOX_MAX_ATTEMPTS,
  type Classified,
  type Data,
  type OutboxHandler,
  type OutboxResult,
} from './types.js';

/** Thrown inside the worker so BullMQ retries the job with backoff; never reaches send(). */
class RetryLater extends RelayError<'outbox_retry'> {
  override name = 'RetryLater';
}

export interface RunParts {
  pacer: Pacer;
  /** Epoch ms, for deadlines (BullMQ's own delays use Date.now()). */
  clock: () => number;
  logger: StoreLogger;
  /** First retry wait, ms, doubling each run. */
  retryBaseMs: number;
  /** Puts a held or retried job back, waking a worker at its time (src/redis/queue-wakes.ts). */
  wakes: Pick<QueueWakes, 'putBack'>;
}

/** The limit's calls as actually made (KEY:call), as conform() checks them. */
const callsOf = (pace: Pace): Pace => ({ ...pace, key: `${pace.key}:call`, earlyMs: pace.callEarlyMs });

export class OutboxRuns {
  /** Per limit (its pace key), this worker's last call under it: the next call waits for it to be over. */
  private readonly inProgress = new Map<string, Promise<unknown>>();

  constructor(private readonly r: RunParts) {}

  async process(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    handler: OutboxHandler,
    classify: (err: unknown) => Classified,
  ): Promise<OutboxResult> {
    const data = job.data;
    // A run after the call was settled (its worker died before completing the job) gives the same result.
    if (data.settled) return data.settled;
    let result: OutboxResult;
    if (this.r.clock() >= data.deadline) result = { ok: false, error: 'deadline' };
    else {
      const { method, channel, args, teamId, whilePending } = data;
      const which = { ...(teamId ? { teamId } : {}), ...(whilePending ? { whilePending } : {}) };
      const make = () => handler({ method, channel, args, ...which });
      result = await this.inTurn(job.data, () => this.call(job, token, make, classify));
    }
    if (data.left && !result.ok) this.reportLeft(job, result.error);
    await this.dropArgs(job, result);
    return result;
  }

  /**
   * Conforms to the limit's calls as made, makes the call and sorts its failure; once Slack answered (or the
   * call failed), the limit's calls as made move on from now (Pacer.answered): Slack counted it by now at the
   * latest.
   */
  private async call(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    make: () => Promise<{ ts?: string; channel?: string }>,
    classify: (err: unknown) => Classified,
  ): Promise<OutboxResult> {
    await this.conform(job, token);
    const pace = this.r.pacer.paceOf(job.data);
    try {
      return { ok: true, ...(await make()) };
    } catch (err) {
      return await this.onError(job, token, classify(err), err);
    } finally {
      if (pace) await this.answered(pace, job);
    }
  }

  private async answered(pace: Pace, job: Job<Data, OutboxResult>): Promise<void> {
    await this.r.pacer.answered(callsOf(pace)).catch((err: unknown) => {
      this.r.logger.warn({ err, id: job.id }, 'outbox: could not move a limit on from a call answered');
    });
  }

  /**
   * Runs `call` once this worker's call in progress under the same limit is over. conform() counts a call from
   * when it was checked, but a busy event loop (the bot's, or Slack's side) can hold a call for longer than
   * the burst's slack before Slack counts it, and a later call checked meanwhile then reaches Slack right
   * behind it or ahead of it: at load 13-19 the flood's 500 posts had 1-27 refused (ratelimited). One call per
   * limit at a time, moved on from its answer, is never counted by Slack later than the pacing counted it.
   */
  private async inTurn(call: PacedCall, run: () => Promise<OutboxResult>): Promise<OutboxResult> {
    const pace = this.r.pacer.paceOf(call);
    if (!pace) return run();
    const key = pace.key;
    const mine = (this.inProgress.get(key) ?? Promise.resolve()).then(run);
    const over: Promise<unknown> = mine
      .catch(() => undefined)
      .finally(() => {
        if (this.inProgress.get(key) === over) this.inProgress.delete(key);
      });
    this.inProgress.set(key, over);
    return mine;
  }

  /**
   * A call a stopped replica left queued failed for good: nobody waits for its result, so it is logged here
   * with Slack's error code (or 'deadline'). The Slack call itself, when made, is also counted by
   * elicit_relay_slack_api_calls_total{method, error} (the counting fetch).
   */
  private reportLeft(job: Job<Data, OutboxResult>, error: string): void {
    const { method, channel, teamId } = job.data;
    this.r.logger.warn(
      { id: job.id, method, channel, ...(teamId ? { teamId } : {}), error },
      'outbox: a call left queued by a stopped replica failed',
    );
  }

  /**
   * A job runs late when the worker is busy or was down, and a late call followed by one on time can go past
   * Slack's burst allowance even though their slots were one interval apart (a late call moves Slack's
   * theoretical arrival time on from when it came). So each call also takes a slot of the limit's calls as
   * made; when that slot is later than now, the job is delayed to it (holding it: its next run calls) and
   * DelayedError thrown. A slot past the deadline is kept too: the next run then gives up at, never before, it.
   */
  private async conform(job: Job<Data, OutboxResult>, token: string | undefined): Promise<void> {
    const pace = this.r.pacer.paceOf(job.data);
    const held = job.data.heldUntil;
    if (!pace || (held !== undefined && Date.now() < held + pace.intervalMs)) return;
    const waitMs = await this.r.pacer.reserve(callsOf(pace), 0);
    if (waitMs <= 0) return;
    // BullMQ's delayed set is ordered by Date.now() timestamps, so this one is not the injected clock.
    const heldUntil = Date.now() + waitMs;
    await job.updateData({ ...job.data, heldUntil, deadline: this.movedDeadline(job.data, waitMs) });
    await this.r.wakes.putBack(job, heldUntil, token);
    throw new DelayedError();
  }

  /** Keeps the settled call's result instead of its message; a failure only means the message stays longer. */
  private async dropArgs(job: Job<Data, OutboxResult>, result: OutboxResult): Promise<void> {
    const { method, channel, deadline } = job.data;
    await job.updateData({ method, channel, deadline, settled: result }).catch((err: unknown) => {
      this.r.logger.warn({ err, id: job.id }, 'outbox: could not drop a sent message from its job');
    });
  }

  /**
   * A 429: later calls under the same limit queue behind the Retry-After; this one runs again once it passed,
   * taking a fresh slot after them so it does not collide with a call already queued for that slot. A call
   * sent without a deadline has its deadline moved on with that slot (Data.fromSlot); one with a deadline
   * gives up when the slot is past it.
   */
  private async afterRetryAfter(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    retryAfterMs: number,
  ): Promise<OutboxResult> {
    if (!job.data.fromSlot && this.r.clock() + retryAfterMs >= job.data.deadline) {
      return { ok: false, error: 'deadline' };
    }
    const pace = this.r.pacer.paceOf(job.data);
    if (pace) await this.r.pacer.reserve(pace, retryAfterMs);
    const waitMs = pace ? Math.max(retryAfterMs, await this.r.pacer.reserve(pace, 0)) : retryAfterMs;
    if (job.data.fromSlot)
      await job.updateData({ ...job.data, deadline: this.movedDeadline(job.data, waitMs) });
    // BullMQ's delayed set is ordered by Date.now() timestamps, so this one is not the injected clock.
    await this.r.wakes.putBack(job, Date.now() + waitMs, token);
    throw new DelayedError();
  }

  /** The deadline of a call paced `waitMs` on: moved to that slot + the default for a call sent without one. */
  private movedDeadline(data: Data, waitMs: number): number {
    if (!data.fromSlot) return data.deadline;
    return Math.max(data.deadline, this.r.clock() + waitMs + OUTBOX_DEFAULT_DEADLINE_MS);
  }

  /** Gives up, or throws so BullMQ runs the job again: after Retry-After (this limit) or after backoff. */
  private async onError(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    c: Classified,
    cause: unknown,
  ): Promise<OutboxResult> {
    if (!c.retry) return { ok: false, error: c.error };
    const { retryBaseMs } = this.r;
    // BullMQ's exponential backoff waits base * 2^(runs so far - 1); attemptsMade counts the earlier runs.
    const waitMs = c.retryAfterMs ?? retryBaseMs * 2 ** job.attemptsMade;
    if (c.retryAfterMs !== undefined) return this.afterRetryAfter(job, token, c.retryAfterMs);
    if (this.r.clock() + waitMs >= job.data.deadline) return { ok: false, error: 'deadline' };
    if (job.attemptsMade + 1 >= OUTBOX_MAX_ATTEMPTS) return { ok: false, error: c.error };
    throw new RetryLater('outbox_retry', `Slack call failed (${c.error}); retrying`, { cause });
  }
}
