// The store's timer side: the two BullMQ queues (timeouts, one job per deadline slot, store/slots.ts; reminders),
// their workers, the rescue of slots that lost their job (store/slot-rescue.ts) and the restart of a timeout
// worker that takes no job (store/timeout-watch.ts).
import { Queue } from 'bullmq';
import type { Clock } from '../clock.js';
import {
  REMINDER_QUEUE,
  TIMEOUT_QUEUE,
  type Keys,
  type RedisClient,
  type RedisConnections,
  type StoreLogger,
} from '../redis/index.js';
import { reminderHandler } from './reminders.js';
import type { StoreScripts } from './scripts.js';
import type { SlotDrops } from './slot-drops.js';
import { SlotRescue } from './slot-rescue.js';
import { slotHandler, type SlotJobs } from './slots.js';
import { TimeoutWatch } from './timeout-watch.js';
import { Timers, type TimerSettings } from './timers.js';

/** Approximate cap on the timer queues' BullMQ event streams (entries). */
const TIMER_EVENTS_MAX_LEN = 100;

/** The timeout and reminder queues, on the connection given (the store gives them one of their own). */
export async function openTimerQueues(
  cmd: RedisClient,
  k: Keys,
  logger: StoreLogger,
): Promise<[Queue, Queue]> {
  const open = (name: string): Queue => {
    // Nothing reads these queues' event streams (no QueueEvents on them), so keep them short: at the default
    // 10,000 entries the timeout queue's stream cost ~70 B per pending question at 10,000 pending.
    const streams = { events: { maxLen: TIMER_EVENTS_MAX_LEN } };
    const q = new Queue(name, { connection: cmd, prefix: k.bullPrefix, streams });
    q.on('error', (err) => logger.warn({ err, queue: name }, 'timer queue error'));
    return q;
  };
  const queues: [Queue, Queue] = [open(TIMEOUT_QUEUE), open(REMINDER_QUEUE)];
  await Promise.all(queues.map((q) => q.waitUntilReady()));
  return queues;
}

export interface TimerWorkDeps {
  connections: RedisConnections;
  keys: Keys;
  holderId: string;
  logger: StoreLogger;
  cmd: RedisClient & StoreScripts;
  slots: SlotJobs;
  drops: SlotDrops;
  reminders: Queue;
  retentionSec: number;
  settings?: TimerSettings;
  /** The store's clock: when a worker last took a job, and the watch's looks. */
  clock: Pick<Clock, 'now' | 'schedule'>;
}

export class TimerWork {
  /** Questions this replica's timeout worker has handed to onDue right now (see Finisher.timeoutJobHere). */
  readonly runningHere = new Set<string>();
  /** The workers; `timers.worker(TIMEOUT_QUEUE)` is the timeout queue's while it runs (the watch replaces it). */
  readonly timers: Timers;
  private readonly rescue: SlotRescue;
  private readonly watch: TimeoutWatch;

  constructor(private readonly deps: TimerWorkDeps) {
    const { connections, keys, holderId, logger, cmd, slots, settings, clock } = deps;
    this.timers = new Timers(connections, keys, holderId, logger, clock, settings);
    const markerTtlMs = deps.retentionSec * 1000;
    this.rescue = new SlotRescue({ cmd, keys, slots, logger, markerTtlMs }, settings);
    const worker = {
      idleMs: () => this.timers.idleMs(TIMEOUT_QUEUE),
      restart: () => this.timers.restart(TIMEOUT_QUEUE),
    };
    this.watch = new TimeoutWatch({ cmd, keys, queue: slots.queue, worker, clock, logger }, settings);
  }

  async startTimeouts(onDue: (questionId: string) => Promise<void>): Promise<void> {
    const { cmd, keys, logger } = this.deps;
    const { wakes } = this.deps.slots;
    const handler = slotHandler({ cmd, keys, runningHere: this.runningHere, onDue, wakes, logger });
    await this.timers.start(TIMEOUT_QUEUE, handler);
    this.rescue.start();
    this.watch.start();
  }

  async startReminders(onReminder: (questionId: string, at: number) => Promise<void>): Promise<void> {
    await this.timers.start(REMINDER_QUEUE, reminderHandler(this.deps.cmd, this.deps.keys, onReminder));
  }

  /**
   * Stops the rescue, the watch and the workers (see Timers.close), runs the deferred slot drops at once and lets the slot
   * job removals complete, so a stopped store leaves no job of an empty slot behind.
   */
  async stop(graceful: boolean): Promise<void> {
    await this.rescue.stop();
    await this.watch.stop();
    await this.timers.close(graceful);
    await this.deps.drops.flush();
    await this.deps.slots.settle();
  }

  async closeQueues(): Promise<void> {
    for (const q of [this.deps.slots.queue, this.deps.reminders]) {
      await q.close().catch((err: unknown) => this.deps.logger.warn({ err }, 'closing a timer queue'));
    }
  }
}
