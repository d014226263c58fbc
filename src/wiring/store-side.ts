// The store side of the composition root (src/main.ts): what every later step of the wiring is given.
import type { SlackAppConfig } from '../config/index.js';
import { startAudit, type Audit } from '../audit/index.js';
import { systemClock } from '../clock.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../logger.js';
import { Metrics } from '../metrics/index.js';
import { openRounds, openState, type OpenedState } from '../persistence.js';
import { ServerPolicies } from '../policies.js';
import type { RedisRoundStore } from '../rounds/index.js';
import { replicaTimings, type ReplicaTimings } from '../store/index.js';

/** What each step of the wiring is given: this replica's settings, log, lifecycle and id, and the store side. */
export interface Wiring {
  config: SlackAppConfig;
  logger: Logger;
  parts: Lifecycle;
  holderId: string;
  opened: OpenedState;
  roundStore: RedisRoundStore;
  audit: Audit;
  metrics: Metrics;
  policies: ServerPolicies;
  /** The lease this replica takes and judges others' by (ELICIT_RELAY_REPLICA_LEASE), and its sweeps' period. */
  timings: ReplicaTimings;
}

/** The store side: Redis state, the durable rounds' store, the audit trail; then metrics and policies. */
export async function openStoreSide(
  config: SlackAppConfig,
  logger: Logger,
  parts: Lifecycle,
  holderId: string,
): Promise<Wiring> {
  const opened = await openState(config, { holderId, logger }, parts);
  const roundStore = await openRounds(config, { holderId, logger }, parts);
  const audit = await startAudit(config, { logger, clock: systemClock, consumer: holderId }, parts);
  const metrics = new Metrics(systemClock);
  const policies = new ServerPolicies(config.servers);
  const timings = replicaTimings(config.replicaLeaseMs);
  return { config, logger, parts, holderId, opened, roundStore, audit, metrics, policies, timings };
}
