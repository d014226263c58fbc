// Opening the question store's Redis side: its command connection (with the store's scripts),
// the eviction-policy check, and the timer queues on a connection of their own, with their collaborators.
import {
  RedisConnections,
  type RedisClient,
  checkEvictionPolicy,
  checkPermissions,
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
  /** The timer queues' connection (BullMQ's scripts live there, not on cmd). */
  queueConnection: RedisClient;
}

/** Connects and opens the timer queues; on failure ends what it connected and throws a StoreError. */
export async function openStoreParts(opts: StoreOptions): Promise<StoreParts> {
  const k = keys(opts.prefix);
  const logger = opts.logger ?? defaultLogger;
  const connections = new RedisConnections(opts, logger);
  // Each command is written as it is issued, not auto-pipelined: see RedisConnections.command.
  const name = k.connectionName('cmd', opts.holderId);
  const cmd = withScripts(await connections.command(name));
  let queueConnection: RedisClient | undefined;
  try {
    await checkEvictionPolicy(cmd, logger, opts.requireNoeviction ?? false);
    // An ACL user lacking a command the bot needs stops start-up naming it, not every question later.
    await checkPermissions(cmd, opts, opts.prefix);
    // The timer queues get a connection of their own: BullMQ defines its ~64 scripts on the connection it is
    // given, and ioredis copies every script defined on a client into each pipeline it builds, so each pipeline
    // on the command connection (ending a question's other answerers' entries, transitions.ts) would pay for
    // 78 scripts instead of the store's 14 (issue #19 goal 2).
    queueConnection = await connections.command(k.connectionName('queues', opts.holderId));
    const timers = await openTimers(queueConnection, { opts, cmd, keys: k, logger });
    return { opts, connections, holderId: opts.holderId, keys: k, logger, cmd, ...timers, queueConnection };
  } catch (err) {
    if (queueConnection) await endClient(queueConnection, false);
    await endClient(cmd, false);
    throw commandError('start-up', err);
  }
}

/** The timeout slots (with their wakes and drops) and the reminder queue, on the queues' own connection. */
async function openTimers(
  queueConnection: RedisClient,
  base: Pick<StoreParts, 'opts' | 'cmd' | 'keys' | 'logger'>,
): Promise<Pick<StoreParts, 'retentionSec' | 'slots' | 'drops' | 'reminders'>> {
  const { opts, cmd, keys: k, logger } = base;
  const [queue, reminders] = await openTimerQueues(queueConnection, k, logger);
  const retentionSec = opts.retentionSec ?? 86_400;
  const clock = opts.clock ?? systemClock;
  // Wakes follow BullMQ's own time, so they run on the system's timers even where tests drive the store's clock.
  const wake = markerWake(queue, queueConnection);
  const wakes = new QueueWakes({ wake, schedule: systemClock.schedule, logger, queue: TIMEOUT_QUEUE });
  const slots = new SlotJobs(queue, logger, retentionSec, clock, wakes);
  const drops = new SlotDrops({ cmd, keys: k, slots, clock, logger });
  return { retentionSec, slots, drops, reminders };
}
