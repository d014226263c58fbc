// Deferred drops of emptied deadline slots (store/slots.ts). One question at a time empties its slot at every
// finish, and the next create opens it again: a BullMQ add (awaited by the create) and a remove per question, 6
// round trips a lifecycle instead of 4. So while slots keep being emptied (this store emptied one less than
// KEEP_WITHIN_MS before), a finish that empties one keeps its marker and job, and the slot is dropped a grace
// later, once per slot however many finishes emptied it meanwhile, and only if it is still empty (SLOT_DROP_LUA):
// a create in between joins the slot and its job. A slot emptied after a quiet spell is dropped at once, as before.
// Nothing depends on the drop: a job left behind (a crash before it, a failed remove) fires at its wake time,
// finds its slot empty, deletes the marker if it still names its gen and completes. close() and drain() run the
// pending drops at once (TimerWork.stop).
import type { Clock } from '../clock.js';
import type { Keys, RedisClient, StoreLogger } from '../redis/index.js';
import { settleWithin } from '../settle.js';
import type { StoreScripts } from './scripts.js';
import { SLOT_MS, type SlotJobs } from './slots.js';

/** A finish keeps a slot it empties when this store emptied one less than this before, ms. */
export const KEEP_WITHIN_MS = 50;
/**
 * The grace a kept slot waits for a create to join it: GAP_FACTOR times the time since the previous emptying
 * (one lifecycle when they run one at a time), at least MIN_GRACE_MS and at most KEEP_WITHIN_MS * GAP_FACTOR
 * (400 ms). So about GAP_FACTOR lifecycles share one add and remove however slow the machine is (~15 at ~0.7 ms
 * each on a quiet one), while the job of a slot emptied by the last question of a run outlives it by a few of
 * that run's own lifecycles only: tests that look for jobs left behind right after the last answer (test/faults
 * T1, T21: a thousand reads first) find it gone.
 */
const GAP_FACTOR = 8;
const MIN_GRACE_MS = 10;
/** How long stop lets the drop scripts it runs (and those under way) complete, ms. */
const FLUSH_GRACE_MS = 5_000;

export interface SlotDropDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  slots: SlotJobs;
  clock: Pick<Clock, 'now' | 'schedule'>;
  logger: StoreLogger;
}

interface Pending {
  slot: number;
  gen: string;
  cancel: () => void;
}

export class SlotDrops {
  /** Drops waiting for their grace, by slot job id; one per job, however many finishes emptied its slot. */
  private readonly pending = new Map<string, Pending>();
  /** Drop scripts under way, so flush() can let them complete. */
  private readonly running = new Set<Promise<void>>();
  /** When this store's last finish emptied a slot (clock ms). */
  private lastEmptiedAt = -Infinity;

  constructor(private readonly deps: SlotDropDeps) {}

  /** Whether a finish now keeps a slot it empties (FINISH_LUA's ARGV[17]): slots are being emptied again and again. */
  keeping(): boolean {
    return this.deps.clock.now() - this.lastEmptiedAt < KEEP_WITHIN_MS;
  }

  /**
   * A finish emptied `slot`, whose job is `gen`. When it `kept` the marker, the drop waits for its grace;
   * otherwise the finish script deleted the marker and the job is removed now.
   */
  emptied(slot: number, gen: string, kept: boolean): void {
    const now = this.deps.clock.now();
    const gapMs = Math.min(now - this.lastEmptiedAt, KEEP_WITHIN_MS);
    this.lastEmptiedAt = now;
    if (!kept) return this.deps.slots.remove(slot, gen);
    const id = `${slot}.${gen}`;
    if (this.pending.has(id)) return;
    const graceMs = Math.max(MIN_GRACE_MS, GAP_FACTOR * gapMs);
    const cancel = this.deps.clock.schedule(() => this.run(id), graceMs);
    this.pending.set(id, { slot, gen, cancel });
  }

  /** Runs every pending drop now and lets them complete (a shutdown: nothing left behind, T21). */
  async flush(): Promise<void> {
    for (const [id, { cancel }] of this.pending) {
      cancel();
      this.run(id);
    }
    await settleWithin([...this.running], FLUSH_GRACE_MS);
  }

  private run(id: string): void {
    const drop = this.pending.get(id);
    if (drop === undefined) return;
    this.pending.delete(id);
    const work = this.drop(drop).catch((err: unknown) => {
      this.deps.logger.warn(
        { err, slot: drop.slot },
        'could not drop an emptied slot; its job will find it empty',
      );
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async drop({ slot, gen }: Pending): Promise<void> {
    const { cmd, keys: k } = this.deps;
    const dropped = await cmd.slotDrop(k.due, k.slot(String(slot)), slot * SLOT_MS, SLOT_MS, gen);
    if (dropped === 1) this.deps.slots.remove(slot, gen);
  }
}
