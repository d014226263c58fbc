// The safety net of timeouts by deadline slot (store/slots.ts). Only the create that opens a slot adds its job,
// so a crash between that create's script and its BullMQ add (or an add that failed after other creates had
// joined the slot) would leave every question of the slot without a timeout, not only the crashed creator's.
// Each replica running timeouts looks now and then for questions overdue far beyond any live job's delay and
// gives their slots a new job (SLOT_RESCUE_LUA).
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
/**
 * Times a question's slot is given a new job before the rescue gives up on it (it leaves the due index, is
 * logged, and stays pending until its record expires, as a per-question job did after its 5 attempts). Each
 * new job itself tries onDue up to 5 times, so a question whose onDue always fails is tried ~15 times over
 * >= 3 RESCUE_EVERY_MS; without a bound it was retried every 30 s until its record expired.
 */
export const MAX_RESCUES = 3;

/** rescueEveryMs (default RESCUE_EVERY_MS) and rescueAfterMs (default RESCUE_AFTER_MS). */
type RescueSettings = Pick<TimerSettings, 'rescueEveryMs' | 'rescueAfterMs'>;

export interface RescueDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  slots: SlotJobs;
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
