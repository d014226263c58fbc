// The question store: pending questions in Redis, their timeouts (one BullMQ delayed job per deadline slot) and
// reminders as BullMQ delayed jobs, one
// atomic transition that ends them, each holder's inbox of finished questions, replica leases with an orphan
// sweep, a per-person pending index and a per-server rate limit on new questions.
import {
  isQuestionState,
  type Attached,
  type CardRef,
  type Draft,
  type EndReason,
  type FinishResult,
  type NewQuestion,
  type Outcome,
  type Question,
  type WorkspaceScope,
} from '../relay/types.js';
import { StoreError, commandError, endClient } from '../redis/index.js';
import { systemClock } from '../clock.js';
import { RateLimitedError } from './errors.js';
import { Inbox } from './inbox.js';
import { settleWithin } from '../settle.js';
import type { LeaseOptions, SweepOptions } from './lease.js';
import { Liveness } from './liveness.js';
import { admit, pendingFor, undeliveredBefore } from './pending.js';
import { draftField, parseDraft, parseQuestion, type StoredQuestion } from './record.js';
import { RedisRoundLinks } from './round-links.js';
import type { CreateOptions, RateLimit } from '../relay/relay.js';
import type { RoundLinkStore } from '../relay/round-links.js';
import { readRecords } from './schemas.js';
import { withScripts } from './scripts.js';
import type { StoreOptions } from './options.js';
import { type StoreParts, openStoreParts } from './open.js';
import { CLOSE_GRACE_MS } from './timers.js';
import { TimerWork } from './timer-work.js';
import { finishQuestion, redisNow, writeQuestion } from './transitions.js';
import { overdueMs, readOldestDue } from './overdue.js';
import { pendingIn } from './workspace-questions.js';

export {
  CLOSE_GRACE_MS,
  TIMEOUT_LOCK_DURATION_MS,
  TIMEOUT_RECOVERY_BOUND_MS,
  TIMEOUT_STALLED_INTERVAL_MS,
  TIMER_MAX_BLOCK_MS,
} from './timers.js';
export type { StoreOptions } from './options.js';

export class QuestionStore {
  private readonly timers: TimerWork;
  private inbox: Inbox | undefined;
  private readonly liveness: Liveness;
  /** create and finish calls in progress, so drain() can let them complete. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private draining = false;
  private closed = false;

  private constructor(private readonly c: StoreParts) {
    this.timers = new TimerWork({ ...c, settings: c.opts.timers, clock: c.opts.clock ?? systemClock });
    this.liveness = new Liveness({ cmd: c.cmd, keys: c.keys, logger: c.logger, holderId: c.opts.holderId });
  }

  static async open(opts: StoreOptions): Promise<QuestionStore> {
    return new QuestionStore(await openStoreParts(opts));
  }

  /** The latest question of each 2026 URL request, on this store's connection and retention. */
  roundLinks(): RoundLinkStore {
    return new RedisRoundLinks(this.c.cmd, this.c.keys, this.c.retentionSec);
  }

  /**
   * Writes a pending question, its indexes and its timer jobs; refuses with 'draining' after drain(), except a
   * 2026 round's: its round, not this replica, waits for it (a durable retry still out at a stop may be answered
   * with a further round), and a survivor records its answers and resumes the call.
   */
  create(q: NewQuestion, opts: CreateOptions = {}): Promise<Question> {
    if (this.draining && q.round === undefined) {
      return Promise.reject(new StoreError('draining', 'This replica is shutting down; no new questions'));
    }
    return this.track(writeQuestion(this.c, q, opts));
  }

  /**
   * Counts one new creation against `name`'s per-window limit across replicas (the same counter `create`'s
   * `rateLimit` uses: an API client's calls and questions share its budget); throws RateLimitedError beyond it.
   */
  async admit(name: string, limit: RateLimit): Promise<void> {
    try {
      await admit(this.c.cmd, this.c.keys, name, limit);
    } catch (err) {
      if (err instanceof RateLimitedError) throw err;
      throw commandError('admit', err);
    }
  }

  async get(id: string): Promise<StoredQuestion | undefined> {
    let record: Record<string, string>;
    try {
      const k = this.c.keys;
      [record = {}] = await readRecords(this.c.cmd, [k.question(id)], k.schema(''));
    } catch (err) {
      throw commandError('get', err);
    }
    return parseQuestion(record);
  }

  /** Records the posted Slack cards (at least one); a no-op when the question no longer exists. */
  async attachCards(id: string, [card, ...more]: [CardRef, ...CardRef[]]): Promise<Attached> {
    try {
      const others = more.length > 0 ? [JSON.stringify(more)] : [];
      const key = this.c.keys.question(id);
      const state = await this.c.cmd.questionAttachCard(key, card.channel, card.ts, ...others);
      if (state === 'ended_with_card') return state;
      return isQuestionState(state) ? state : 'missing';
    } catch (err) {
      throw commandError('attachCards', err);
    }
  }

  /**
   * The poster drew the question's end on cards attached after it ended: an accepted answer's content, kept for
   * that card (INBOX_ACK_LUA), goes once its holder has it too (CARD_END_SHOWN_LUA).
   */
  async endShownOnCards(id: string): Promise<void> {
    try {
      await this.c.cmd.questionEndShown(this.c.keys.question(id));
    } catch (err) {
      throw commandError('endShownOnCards', err);
    }
  }

  /** One person's draft of the question's form, when they have one. */
  async draft(id: string, userId: string): Promise<Draft | undefined> {
    let raw: string | null;
    try {
      raw = await this.c.cmd.hget(this.c.keys.question(id), draftField(userId));
    } catch (err) {
      throw commandError('draft', err);
    }
    return parseDraft(id, userId, raw);
  }

  /** Keeps one person's draft while the question is pending; false when it has ended meanwhile. */
  async saveDraft(id: string, userId: string, draft: Draft): Promise<boolean> {
    const field = draftField(userId);
    try {
      return (
        (await this.c.cmd.questionSaveDraft(this.c.keys.question(id), field, JSON.stringify(draft))) === 1
      );
    } catch (err) {
      throw commandError('saveDraft', err);
    }
  }

  /** A person's pending questions, soonest deadline first. */
  async pendingFor(userId: string): Promise<Question[]> {
    try {
      return await pendingFor(this.c.cmd, this.c.keys, userId, this.c.logger);
    } catch (err) {
      throw commandError('pendingFor', err);
    }
  }

  /**
   * Pending questions older than `graceMs` whose card was never attached and that no live replica will attach:
   * API questions (their creator may have died before posting) and durable rounds' questions (their replica may
   * have stopped or died with the post queued); at most 10,000 looked at per call (store/pending.ts).
   */
  async undelivered(graceMs: number): Promise<Question[]> {
    try {
      const now = await redisNow(this.c.cmd);
      return await undeliveredBefore(this.c.cmd, this.c.keys, now - graceMs, this.c.logger);
    } catch (err) {
      throw commandError('undelivered', err);
    }
  }

  /** Ends a pending question exactly once; every other attempt learns the state it is already in. */
  finish(id: string, outcome: Outcome, reason: EndReason, endedBy?: string): Promise<FinishResult> {
    const finisher = {
      reason,
      timeoutJobHere: this.timers.runningHere.has(id),
      ...(endedBy ? { endedBy } : {}),
    };
    return this.track(finishQuestion(this.c, id, outcome, finisher));
  }

  /** How far past its deadline (Redis TIME) the most overdue pending question is, ms; 0 when none. One command. */
  async overdueMs(): Promise<number> {
    try {
      return overdueMs(await readOldestDue(this.c.cmd, this.c.keys));
    } catch (err) {
      throw commandError('overdueMs', err);
    }
  }

  /**
   * Runs onDue(questionId) once a question's deadline has passed on Redis TIME (its deadline slot's job hands it
   * over; store/slots.ts); onDue ends it with finish(..., 'timed_out'). BullMQ fires a job by its worker's clock:
   * on a worker whose clock runs ahead, the job finds its questions not yet due and is put back for the time
   * still left. A worker whose clock runs behind fires late by its skew.
   */
  async startTimeouts(onDue: (questionId: string) => Promise<void>): Promise<void> {
    await this.timers.startTimeouts(onDue);
  }

  /** Runs onReminder(questionId, at) for each reminder time that comes due while its question is pending. */
  async startReminders(onReminder: (questionId: string, at: number) => Promise<void>): Promise<void> {
    await this.timers.startReminders(onReminder);
  }

  async startInbox(onOutcome: (question: Question) => void): Promise<void> {
    const { opts, keys: k, logger, connections } = this.c;
    const redis = withScripts(await connections.blocking(k.connectionName('inbox', opts.holderId)));
    const deps = {
      redis,
      streamKey: k.inbox(opts.holderId),
      questionKey: (id: string) => k.question(id),
      schemaPrefix: k.schema(''),
      logger,
    };
    this.inbox = new Inbox(deps, onOutcome);
    this.inbox.start();
  }

  /**
   * Takes this replica's lease and keeps renewing it. Call it before the first create: a holder is only ever
   * swept once it has taken a lease, so questions created earlier are safe but unprotected until then.
   */
  async startLease(opts?: LeaseOptions): Promise<void> {
    await this.liveness.startLease(opts);
  }

  /**
   * `listener` is called when the lease's renewal finds that Redis lost its data (restarted without
   * persistence, or failed over to a replica that had not synced): the questions pending then are gone.
   */
  onDataLost(listener: () => void): void {
    this.liveness.onDataLost(listener);
  }

  /** Stops renewing the lease and leaves it to lapse, as a crash would (close() releases it instead). */
  stopLease(): void {
    this.liveness.stopLease();
  }

  /**
   * Periodically ends the pending questions of holders whose lease lapsed (see sweepOrphans) through `end`
   * (the relay's end, which also updates the card of each it wins); once per store.
   */
  startOrphanSweep(
    end: (id: string, outcome: Outcome, reason: EndReason) => Promise<FinishResult>,
    opts?: SweepOptions,
  ): void {
    this.liveness.startSweep(end, opts);
  }

  /** The ids of the pending questions asked in a workspace the app left (app_uninstalled, tokens_revoked). */
  async pendingIn(scope: WorkspaceScope): Promise<string[]> {
    try {
      return await pendingIn(this.c.cmd, this.c.keys, scope, this.c.logger);
    } catch (err) {
      throw commandError('pendingIn', err);
    }
  }

  /**
   * One sweep: every pending question of a holder whose lease lapsed ends as cancel / holder_lost. onOrphaned
   * runs for the ones this replica won (to update their cards), so exactly once across all sweepers.
   */
  async sweepOrphans(onOrphaned: (question: Question) => Promise<void>): Promise<Question[]> {
    return this.liveness.sweepOnce((id, o, r) => this.finish(id, o, r), onOrphaned);
  }

  /**
   * Graceful shutdown, step one: refuses new creates ('draining'), stops sweeping, lets in-flight create and
   * finish calls complete and closes the timer workers once their running jobs are done, so nothing is left
   * active or stalled. finish keeps working (to end what is still waiting); close() comes after.
   */
  async drain(): Promise<void> {
    this.draining = true;
    await this.liveness.stopSweep();
    await settleWithin([...this.inFlight], CLOSE_GRACE_MS);
    await this.timers.stop(true);
  }

  /** Stops the workers (letting running jobs finish), the inbox, the sweeper, the lease and every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { cmd } = this.c;
    await this.liveness.stopSweep();
    await this.timers.stop(false);
    await this.inbox?.stop();
    await this.liveness.release();
    await this.timers.closeQueues();
    await endClient(this.c.queueConnection, true);
    await endClient(cmd, true);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }
}
