// Opening the question store's Redis side: its command connection (auto-pipelined, with the store's scripts),
// the eviction-policy check, and the timer queues on a connection of their own, with their collaborators.
import {
  RedisConnections,
  type RedisClient,
  checkEvictionPolicy,
  commandError,
  defaultLogger,
  endClient,
  keys,
  markerWake,
  TIMEOUT_QUEUE,
  QueueWakes,
} from '../redis/index.js';
import { systemClock } from '../clock.js';
import { withScripts } from './scripts.js';
import type { StoreOptions } from './options.js';
import { SlotDrops } from './slot-drops.js';
import { SlotJobs } from './slots.js';
import { openTimerQueues } from './timer-work.js';
import type { Collaborators } from './transitions.js';

/** What a QuestionStore works with: its options, connections and the collaborators of its transitions. */
export interface StoreParts extends Collaborators {
  opts: StoreOptions;
  connections: RedisConnections;
  /** The timer queues' connection (BullMQ's scripts live there, not on the auto-pipelined cmd). */
  queueConnection: RedisClient;
}

/** Connects and opens the timer queues; on failure ends what it connected and throws a StoreError. */
export async function openStoreParts(opts: StoreOptions): Promise<StoreParts> {
  const k = keys(opts.prefix);
  const logger = opts.logger ?? defaultLogger;
  const connections = new RedisConnections(opts, logger);
  // Auto-pipelined while busy: with many questions created and finished at once, one socket write and one read
  // per batch of commands instead of one each cut both this process's and Redis's CPU per lifecycle (issue #19
  // goal 3: the write syscalls were ~20% of create's time in a CPU profile); a command issued while nothing
  // else waits goes out at once, without a pipeline of its own (goal 2, src/redis/pipelining.ts).
  const name = k.connectionName('cmd', opts.holderId);
  const cmd = withScripts(await connections.command(name, { autoPipelining: 'when-busy' }));
  let queueConnection: RedisClient | undefined;
  try {
    await checkEvictionPolicy(cmd, logger, opts.requireNoeviction ?? false);
    // The timer queues get a connection of their own: BullMQ defines its ~64 scripts on the connection it is
    // given, and ioredis copies every script defined on a client into each pipeline it builds, so on the
    // auto-pipelined command connection every batch (one per command when questions come one at a time)
    // paid for 78 scripts instead of the store's 14 (issue #19 goal 2).
    queueConnection = await connections.command(k.connectionName('queues', opts.holderId));
    const [queue, reminders] = await openTimerQueues(queueConnection, k, logger);
    const retentionSec = opts.retentionSec ?? 86_400;
    const clock = opts.clock ?? systemClock;
    // Wakes follow BullMQ's own time, so they run on the system's timers even where tests drive the store's clock.
    const wake = markerWake(queue, queueConnection);
    const wakes = new QueueWakes({ wake, schedule: systemClock.schedule, logger, queue: TIMEOUT_QUEUE });
    const slots = new SlotJobs(queue, logger, retentionSec, clock, wakes);
    const drops = new SlotDrops({ cmd, keys: k, slots, clock, logger });
    return {
      opts,
      connections,
      holderId: opts.holderId,
      retentionSec,
      keys: k,
      logger,
      cmd,
      slots,
      drops,
      reminders,
      queueConnection,
    };
  } catch (err) {
    if (queueConnection) await endClient(queueConnection, false);
    await endClient(cmd, false);
    throw commandError('start-up', err);
  }
}
