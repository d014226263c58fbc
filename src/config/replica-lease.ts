// ELICIT_RELAY_REPLICA_LEASE: how long a replica may go without renewing its lease before the others take it for
// dead and take over its work (its questions swept holder_lost, its durable rounds' retries and its API calls).
// Shorter moves a crashed replica's work sooner; a replica whose event loop stalls longer than it (a long GC
// pause, CPU starvation) is taken for dead while still running.
import { ConfigError } from './error.js';
import { parseDuration } from './duration.js';

/**
 * The shortest lease, in ms: renewed every third of it, a 3 s lease survives a stall of about 2 s; any shorter
 * and an ordinary pause on a loaded machine would have live replicas swept.
 */
const MIN_REPLICA_LEASE_MS = 3_000;
/** The longest lease, in ms: a crashed replica's work waits this long, so past 2 min nobody would want it. */
const MAX_REPLICA_LEASE_MS = 120_000;

/** ELICIT_RELAY_REPLICA_LEASE in ms; none when unset or empty (the store's and rounds' default, 15 s). */
export function readReplicaLease(value: string | undefined): { replicaLeaseMs?: number } {
  if (value === undefined || value === '') return {};
  const ms = parseDuration(value);
  if (ms === undefined || ms < MIN_REPLICA_LEASE_MS || ms > MAX_REPLICA_LEASE_MS) {
    throw new ConfigError(
      'ELICIT_RELAY_REPLICA_LEASE',
      `"${value}" is not a duration from 3s to 120s`,
      'Write a duration such as "15s" (the default): shorter moves a crashed replica\'s work sooner, but a replica stalled longer than it is taken for dead.',
    );
  }
  return { replicaLeaseMs: ms };
}
