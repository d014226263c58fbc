// Timeouts by deadline slot. Every pending question is in the due index ({q}:due, scored by deadline); time is
// cut into slots of SLOT_MS, and each slot that has pending questions has ONE BullMQ delayed job instead of one
// job per question. The create script opens a slot (marker hash {q}:slot:<n>: g = gen, w = when the job is due)
// and only that create adds the job `<n>.<gen>`, due at its own deadline. The job WALKS: it hands every due
// question of its slot to onDue, then puts itself back for the slot's next deadline, recording it as w in the
// same script (SLOT_NEXT_LUA); once the slot is empty it deletes the marker if it still names its gen. A create
// whose deadline is before w lowers w in its script and moves the job earlier (changeDelay); that fails while the
// job is active, so the job re-reads w after putting itself back and follows it (followWake). A finish that
// empties a slot after a quiet spell deletes the marker itself and the job is removed without the finish waiting
// on it; while slots keep being emptied (one question at a time), the finish keeps the slot and its job for a
// later create to join, and the slot is dropped a moment later if still empty (store/slot-drops.ts).
// Why: a BullMQ job is ~710 B of Redis plus an add and a remove script per question; a slot job is shared by
// every question whose deadline falls in the same SLOT_MS, also when they are created seconds apart (issue #19
// goals 3-5).
import { DelayedError, Job, type Queue } from 'bullmq';
import type { Clock } from '../clock.js';
import type { Keys, QueueWakes, RedisClient, StoreLogger } from '../redis/index.js';
import type { Question } from '../relay/types.js';
import { settleWithin } from '../settle.js';
import { newId } from './ids.js';
import { timeoutHandler } from './jobs.js';
import type { StoreScripts } from './scripts.js';
import { handOver, type SlotStep } from './slot-hand-over.js';
import { activeOrGone, followWake, tryMove, type MoveJob } from './slot-moves.js';
import type { JobData } from './timers.js';

/**
 * Width of a deadline slot, ms. A slot's job is due at its earliest pending deadline (not the slot's end), so
 * the width does not add lateness; it bounds how many deadlines one job walks through. 60 s: questions created
 * a few a minute (the usual rate) share one job, while a slot's handful of due-index reads stay small.
 */
export const SLOT_MS = 60_000;
/** Due question ids a slot job reads per step (one SLOT_NEXT_LUA call). */
const SLOT_BATCH = 200;
/** How long close() lets job removals issued by finishes complete, ms. */
const REMOVAL_GRACE_MS = 5_000;
/** Wait between tries of a move earlier that Redis refused, ms: the question is late by the outage plus this. */
const MOVE_RETRY_MS = 1_000;

export const slotOf = (deadline: number): number => Math.floor(deadline / SLOT_MS);

/** A new gen, the marker value that names one slot job. */
export const newGen = (): string => newId();

/** `<slot>.<gen>`: BullMQ refuses ':' in a job id; question ids (base64url) never contain '.'. */
const slotJobId = (slot: number, gen: string): string => `${slot}.${gen}`;

function parseSlotJobId(id: string): { slot: number; gen: string } | undefined {
  const dot = id.indexOf('.');
  if (dot < 0) return undefined;
  return { slot: Number(id.slice(0, dot)), gen: id.slice(dot + 1) };
}

/** The create's side of a lowered w (CREATE_LUA returned 2): which slot job, and the new wake time. */
export interface Lowered {
  /** The question whose create lowered w. */
  question: string;
  cmd: RedisClient & StoreScripts;
  marker: string;
  slot: number;
  gen: string;
  /** The create's deadline and its Redis TIME, epoch ms. */
  deadline: number;
  now: number;
}

/** The timeout queue's side of the slots: adding a slot's job, and removing one whose slot was emptied. */
export class SlotJobs {
  /** Removals issued by finishes and not awaited by them, so close() can let them complete. */
  private readonly removals = new Set<Promise<unknown>>();
  /** Moves earlier waiting to be tried again (Redis refused them), by their cancel; cancelled by settle(). */
  private readonly retries = new Set<() => void>();
  /** Tries of those moves under way, so settle() can let them complete. */
  private readonly tries = new Set<Promise<void>>();
  private settled = false;

  /**
   * `clock`: the store's (StoreOptions.clock), whose timers run the retries, so tests drive them. `wakes`: wake
   * the timeout queue's workers at a slot job's time (src/redis/queue-wakes.ts), on BullMQ's Date.now().
   */
  constructor(
    readonly queue: Queue,
    private readonly logger: StoreLogger,
    private readonly retentionSec: number,
    private readonly clock: Pick<Clock, 'now' | 'schedule'>,
    readonly wakes: Pick<QueueWakes, 'at' | 'close' | 'move' | 'putBack'>,
  ) {}

  /**
   * The slot's job, due at the slot's end. BullMQ dates a delayed job `timestamp + delay`, and `timestamp`
   * defaults to when add() runs, which in a burst of creates can be seconds after the Redis TIME the deadline
   * was computed from (2 000 at once ended up to 7 s late, issue 15.6): so it is dated from createdAt.
   */
  async add(question: Question, gen: string): Promise<void> {
    await this.addSlot(slotOf(question.deadline), gen, question.createdAt, question.deadline);
  }

  /** The job `<slot>.<gen>`, due at `dueAt`; `now` is the Redis TIME the delay is counted from (epoch ms). */
  async addSlot(slot: number, gen: string, now: number, dueAt: number): Promise<void> {
    await this.queue.add(
      'timeout',
      {},
      {
        jobId: slotJobId(slot, gen),
        timestamp: now,
        delay: Math.max(0, dueAt - now),
        // The handler is idempotent (finish is a CAS), so retrying a failed run is always safe.
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: this.retentionSec },
      },
    );
    this.wakes.at(dueAt);
  }

  /**
   * Moves the slot's job earlier, to a create's deadline that lowered its w. A job that is active (its processor
   * re-reads w after putting it back) or gone (its slot was emptied or rescued) refuses: nothing to do then. Any
   * other failure (Redis away) would leave the job at its old w, the question timing out late: logged, and tried
   * again every MOVE_RETRY_MS, each try moving the job to the marker's w as it is then, until one is done or the
   * slot has ended (its job, due by then at the latest, has run).
   */
  async moveEarlier(lowered: Lowered): Promise<void> {
    const { slot, gen, deadline, now } = lowered;
    const job = new Job(this.queue, 'timeout', {}, {}, slotJobId(slot, gen));
    const move: MoveJob = (delayMs) => this.wakes.move(job, delayMs);
    const failed = await tryMove(() =>
      move(Math.max(0, deadline - now)).then(() =>
        followWake(lowered.cmd, lowered.marker, gen, deadline, move),
      ),
    );
    if (failed === undefined) return;
    const what = { question: lowered.question, slot, gen };
    this.logger.warn({ err: failed.err, ...what }, 'slot job not moved to an earlier deadline; retrying');
    // Each try moves the job to the marker's w as it is then (gone, or another gen's: nothing to follow).
    const again = (): Promise<void> => followWake(lowered.cmd, lowered.marker, gen, Infinity, move);
    // Until the slot's end, Redis time, counted as time left on this store's clock (which tests drive).
    const until = this.clock.now() + (slot + 1) * SLOT_MS - now;
    this.retry(again, until, what, 'slot job not moved earlier before its slot ended');
  }

  /**
   * A slot job whose add failed when its create could not be undone either (Redis away): the slot's marker
   * names it, so every create joining the slot counts on it. The add (idempotent by job id), then `undoCreate`
   * (the failed create's record and index entries), are tried every MOVE_RETRY_MS until both are done or the
   * store closes; the slot rescue (slot-rescue.ts) covers a store that closes first.
   */
  addLater(question: Question, gen: string, undoCreate: () => Promise<void>): void {
    const what = { question: question.id, gen };
    this.logger.warn(what, 'slot job not added and its create not undone; retrying');
    const run = () => this.add(question, gen).then(undoCreate);
    this.retry(run, Infinity, what, 'slot job not added');
  }

  /** Tries `run` every MOVE_RETRY_MS until it is done or `until` (clock ms) has passed, then logs `givenUp`. */
  private retry(run: () => Promise<void>, until: number, what: object, givenUp: string): void {
    if (this.settled) return;
    const cancel = this.clock.schedule(() => {
      this.retries.delete(cancel);
      const attempt = tryMove(run).then((failed) => {
        if (failed === undefined) return;
        if (this.clock.now() < until) this.retry(run, until, what, givenUp);
        else this.logger.warn({ err: failed.err, ...what }, givenUp);
      });
      this.tries.add(attempt);
      void attempt.finally(() => this.tries.delete(attempt));
    }, MOVE_RETRY_MS);
    this.retries.add(cancel);
  }

  /**
   * Removes the job of a slot whose last question ended (its marker was deleted: by the finish script or a
   * deferred drop, store/slot-drops.ts). Cleanup only: a job left behind finds its slot empty and its marker gone
   * and completes. Not awaited by the finish.
   */
  remove(slot: number, gen: string): void {
    const removal = this.queue.remove(slotJobId(slot, gen)).catch((err: unknown) => {
      this.logger.warn({ err, gen }, 'could not remove an emptied slot job; it will find its slot empty');
    });
    this.removals.add(removal);
    void removal.finally(() => this.removals.delete(removal));
  }

  /** Cancels the moves waiting for a retry (none is scheduled after this) and lets the tries under way end. */
  async settle(): Promise<void> {
    this.settled = true;
    this.wakes.close();
    for (const cancel of this.retries) cancel();
    this.retries.clear();
    await settleWithin([...this.removals, ...this.tries], REMOVAL_GRACE_MS);
  }
}

export interface SlotHandlerDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  /** Questions whose onDue runs here (Finisher.timeoutJobHere). */
  runningHere: Set<string>;
  onDue: (questionId: string) => Promise<void>;
  /** Puts the job back or moves it, waking a worker at its time (SlotJobs.wakes). */
  wakes: Pick<QueueWakes, 'move' | 'putBack'>;
  logger?: StoreLogger;
}

/**
 * The timeout queue's processor. A slot job hands its slot's due questions (on Redis TIME) to onDue, at most
 * SLOT_CONCURRENCY at once, until none is left. A worker whose clock runs ahead of Redis TIME gets the job early:
 * the questions still ahead put it back for the time left (and DelayedError tells BullMQ so), as does a finish
 * refused as early (NotDueError). A failed onDue fails the job, which BullMQ retries; the retry hands over again
 * every question not yet ended. Jobs of one question (jobId = its id, from before slots) run as they did.
 */
export function slotHandler(deps: SlotHandlerDeps) {
  const single = timeoutHandler(deps.runningHere, deps.onDue);
  return async (job: Job<JobData>, token?: string): Promise<void> => {
    const slot = parseSlotJobId(job.id ?? '');
    if (slot === undefined) return single(job, token);
    const { cmd, keys: k } = deps;
    const marker = k.slot(String(slot.slot));
    const next = async (handed: string[], readAhead = false): Promise<SlotStep> => {
      const args = [slot.slot * SLOT_MS, SLOT_MS, slot.gen, SLOT_BATCH, readAhead ? '1' : '0', ...handed];
      return (await cmd.slotNext(k.due, marker, ...args)) as SlotStep;
    };
    let handed: string[] = [];
    for (;;) {
      const step = await next(handed);
      if (step[0] === 'done' || step[0] === 'none') return;
      let retryAfterMs = 0;
      if (step[0] === 'wait') retryAfterMs = Number(step[1]);
      else
        ({ handed, retryAfterMs } = await handOver(deps, step[1], {
          step: (ids) => next(ids, true),
          batchSize: SLOT_BATCH,
        }));
      if (retryAfterMs > 0) {
        await deps.wakes.putBack(job, Date.now() + retryAfterMs, token);
        if (step[0] === 'wait') await follow(deps, job, marker, slot.gen, Number(step[2]));
        throw new DelayedError();
      }
    }
  };
}

/** followWake for a job its processor just put back to `target`; a failure leaves it there (late, not lost). */
async function follow(deps: SlotHandlerDeps, job: Job<JobData>, marker: string, gen: string, target: number) {
  try {
    await followWake(deps.cmd, marker, gen, target, (delayMs) => deps.wakes.move(job, delayMs));
  } catch (err) {
    if (!activeOrGone(err))
      deps.logger?.warn({ err, job: job.id }, 'slot job not moved to a lowered wake time');
  }
}
