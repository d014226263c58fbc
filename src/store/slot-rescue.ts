// The safety net of timeouts by deadline slot (store/slots.ts). Only the create that opens a slot adds its job,
// so a crash between that create's script and its BullMQ add (or an add that failed after other creates had
// joined the slot) would leave every question of the slot without a timeout, not only the crashed creator's.
// Each replica running timeouts looks now and then for questions overdue far beyond any live job's delay and
// gives their slots a new job (SLOT_RESCUE_LUA). Overdue is not lost: after an outage a slot's job may take
// minutes to work through a backlog, and every replica looks. So a slot whose job is alive in BullMQ is left to
// it, and a slot is given a new job at most once per RESCUE_AFTER_MS: a question's rescue count (MAX_RESCUES)
// rises once per new job its slot is actually given, never once per look.
import type { Job } from 'bullmq';
import type { Keys, RedisClient, StoreLogger } from '../redis/index.js';
import type { StoreScripts } from './scripts.js';
import { SLOT_MS, newGen, type SlotJobs } from './slots.js';
import type { TimerSettings } from './timers.js';

/** How often a replica looks for slots that lost their job, ms. One short script per look. */
export const RESCUE_EVERY_MS = 30_000;
/**
 * Overdue (on Redis TIME) beyond which a question's slot counts as having lost its job, ms: well past the
 * longest a live job takes to run again after its worker died or paused (TIMEOUT_RECOVERY_BOUND_MS +
 * TIMER_MAX_BLOCK_MS, 25 s by default), so a rescue is (almost) never a second job for a live one; when it
 * is, both hand the same questions over and finish, a CAS, ends each once.
 */
export const RESCUE_AFTER_MS = 60_000;
/** Slots given a new job per look at most. */
const RESCUE_SLOTS = 20;
/** Overdue questions one look reads (SLOT_RESCUE_LUA's LIMIT), so the slots whose jobs it checks. */
const RESCUE_READ = 1000;
/** States of a slot job that will run (again) on its own; a delayed one only while it has not failed yet. */
const ALIVE = new Set(['active', 'waiting', 'prioritized', 'waiting-children', 'delayed']);
/**
 * Times a question's slot is given a new job before the rescue gives up on it (it leaves the due index, is
 * logged, and stays pending until its record expires, as a per-question job did after its 5 attempts). Each
 * new job itself tries onDue up to 5 times, so a question whose onDue always fails is tried ~15 times over
 * >= 3 RESCUE_AFTER_MS (a slot is rescued at most once per RESCUE_AFTER_MS, and not while its job is alive and
 * has not failed); without a bound it was retried every 30 s until its record expired.
 */
export const MAX_RESCUES = 3;

/** rescueEveryMs (default RESCUE_EVERY_MS) and rescueAfterMs (default RESCUE_AFTER_MS). */
type RescueSettings = Pick<TimerSettings, 'rescueEveryMs' | 'rescueAfterMs'>;

export interface RescueDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  /** Where a rescued slot's new job goes, and the queue its jobs are checked in. */
  slots: Pick<SlotJobs, 'addSlot' | 'queue'>;
  logger: StoreLogger;
  /** Expiry of a rescued slot's marker, ms (the retention: an overdue question's record lives no longer). */
  markerTtlMs: number;
}

export class SlotRescue {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: RescueDeps,
    private readonly settings: RescueSettings = {},
  ) {}

  start(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.looking = this.once()
        .then(() => undefined)
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'looking for slots that lost their job'))
        .finally(() => {
          this.looking = undefined;
          this.start();
        });
    }, this.settings.rescueEveryMs ?? RESCUE_EVERY_MS);
    this.timer.unref();
  }

  /** One look; returns the slots given a new job. */
  async once(): Promise<number[]> {
    const { cmd, keys: k, slots, markerTtlMs } = this.deps;
    const afterMs = this.settings.rescueAfterMs ?? RESCUE_AFTER_MS;
    const gens = Array.from({ length: RESCUE_SLOTS }, newGen);
    const alive = await this.aliveJobs(afterMs);
    const [due, rescues, prefix] = [k.due, k.rescues, k.slot('')];
    const reply = await cmd.slotRescue(
      due,
      rescues,
      prefix,
      SLOT_MS,
      afterMs,
      markerTtlMs,
      MAX_RESCUES,
      ...gens,
      ...alive,
    );
    const [now, found, given] = parseRescue(reply);
    if (given.length > 0)
      this.deps.logger.warn({ questions: given, rescues: MAX_RESCUES }, 'gave up timing out questions');
    const rescued: number[] = [];
    for (let i = 0; i + 1 < found.length; i += 2) {
      const [slot, gen] = [Number(found[i]), found[i + 1] ?? ''];
      await slots.addSlot(slot, gen, now, now);
      rescued.push(slot);
    }
    if (rescued.length > 0) this.deps.logger.warn({ slots: rescued }, 'timeout slots had lost their job');
    return rescued;
  }

  /**
   * The ids (`<slot>.<gen>`) of the jobs their markers name, of the slots with questions overdue beyond `afterMs`,
   * that are alive: queued, running, or waiting for a later deadline. One whose onDue failed and that waits for
   * its retry (BullMQ's backoff) is not: its questions count a rescue, so one whose onDue always fails is given up.
   * Read before the script: a job found alive that ends meanwhile deletes its marker, or leaves it to a later look.
   */
  private async aliveJobs(afterMs: number): Promise<string[]> {
    const { cmd, keys: k, slots } = this.deps;
    const [sec, micro] = await cmd.time();
    const before = Number(sec) * 1000 + Math.floor(Number(micro) / 1000) - afterMs;
    const late = await cmd.zrangebyscore(k.due, '-inf', `(${before}`, 'WITHSCORES', 'LIMIT', 0, RESCUE_READ);
    const lateSlots = new Set<number>();
    for (let i = 1; i < late.length; i += 2) lateSlots.add(Math.floor(Number(late[i]) / SLOT_MS));
    const checked = await Promise.all(
      [...lateSlots].map(async (slot) => {
        const gen = await cmd.hget(k.slot(String(slot)), 'g');
        if (gen === null) return undefined;
        const id = `${slot}.${gen}`;
        const job: Job | undefined = await slots.queue.getJob(id);
        if (job === undefined) return undefined;
        const state = await job.getState();
        const alive = ALIVE.has(state) && (state !== 'delayed' || job.attemptsMade === 0);
        return alive ? id : undefined;
      }),
    );
    return checked.filter((id): id is string => id !== undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.looking;
  }
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** SLOT_RESCUE_LUA's reply: {now, {slot, gen, ...}, {question ids given up}}. */
function parseRescue(reply: unknown): [number, string[], string[]] {
  const parts: unknown[] = Array.isArray(reply) ? reply : [];
  const [now, found, given] = parts;
  return [Number(now ?? 0), strings(found), strings(given)];
}
