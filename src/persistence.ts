// The Redis-backed parts as the composition root starts them: the question store (with its lease), Slack's
// own state and the outbox, then the store's workers. Each pushes its stop onto the lifecycle as it starts.
import { servesSeveralWorkspaces, type AppConfig } from './config/index.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import { systemClock } from './clock.js';
import { startDeliverySweep } from './relay/delivery-sweep.js';
import type { Relay } from './relay/relay.js';
import type { Question } from './relay/types.js';
import { Outbox, SlackState } from './slack/index.js';
import { QuestionStore, replicaTimings } from './store/index.js';
import { RedisConnections, endClient, keys } from './redis/index.js';
import { RedisRoundStore } from './rounds/index.js';
import { Sealer } from './mcp/index.js';

export interface OpenedState {
  store: QuestionStore;
  state: SlackState;
  outbox: Outbox;
}

export async function openState(
  config: AppConfig,
  who: { holderId: string; logger: Logger },
  parts: Lifecycle,
): Promise<OpenedState> {
  const { retentionSec, ...redis } = config.redis;
  const retention = retentionSec ? { retentionSec } : {};
  const store = await QuestionStore.open({ ...redis, ...who, ...retention });
  parts.push('question store', () => store.close());
  // The lease comes first: a holder is only ever swept once it has one, so no question predates it.
  await store.startLease(replicaTimings(config.replicaLeaseMs).lease);
  const sealing = installationSealing(config, who.logger);
  const state = await SlackState.open({ ...redis, ...who, ...retention, ...sealing });
  parts.push('Slack state', () => state.close());
  const outbox = await Outbox.open({ ...redis, logger: who.logger });
  parts.push('outbox', () => outbox.close());
  return { store, state, outbox };
}

/**
 * Slack installations (their bot and refresh tokens) opened with ELICIT_RELAY_TOKEN_KEY when it is set, and
 * written sealed with it when ELICIT_RELAY_SEAL_INSTALLATIONS is true; else written plain, which a distributed app
 * is told once at start-up.
 */
function installationSealing(config: AppConfig, logger: Logger): { sealer?: Sealer; sealWrites?: boolean } {
  const keys = config.tokenKeys;
  const sealer = keys ? { sealer: new Sealer(keys.tokenKey, keys.previousTokenKey) } : {};
  if (config.sealInstallations === true) return { ...sealer, sealWrites: true };
  if (servesSeveralWorkspaces(config.slack)) {
    logger.info(
      'Slack installations (bot and refresh tokens) are kept unencrypted in Redis: once every replica runs this release, set ELICIT_RELAY_TOKEN_KEY (openssl rand -base64 32) and ELICIT_RELAY_SEAL_INSTALLATIONS=true to encrypt them',
    );
  }
  return sealer;
}

/** The round store of durable 2026 rounds, on its own command connection. */
export async function openRounds(
  config: AppConfig,
  who: { holderId: string; logger: Logger },
  parts: Lifecycle,
): Promise<RedisRoundStore> {
  const k = keys(config.redis.prefix);
  const connections = new RedisConnections(config.redis, who.logger);
  const redis = await connections.command(k.connectionName('rounds', who.holderId));
  parts.push('rounds connection', () => endClient(redis, true));
  return new RedisRoundStore({ redis, keys: k });
}

/**
 * The store's workers: the inbox (outcomes of this replica's questions), timeouts, reminders, the sweep of
 * questions whose holder died every `orphanSweepEveryMs` (the survivor that ends one updates its card), and the
 * sweep of questions whose card no live replica will attach (relay/delivery-sweep.ts; `redeliverAfterMs` its
 * grace). drain() stops the store's.
 */
export async function startQuestionWork(
  store: QuestionStore,
  deps: { relay: Relay; logger: Logger; redeliverAfterMs?: number | undefined; orphanSweepEveryMs: number },
  parts: Lifecycle,
): Promise<void> {
  const { relay, logger, redeliverAfterMs } = deps;
  parts.push('question workers', () => store.drain());
  await store.startInbox((question) => relay.onFinished(question));
  store.onDataLost(() => void relay.endLost());
  await store.startTimeouts(async (id) => {
    await relay.end(id, { action: 'cancel' }, 'timed_out');
  });
  await store.startReminders((id, at) => relay.remind(id, at));
  const everyMs = deps.orphanSweepEveryMs;
  store.startOrphanSweep((id, outcome, reason) => relay.end(id, outcome, reason), { everyMs });
  const sweep = {
    undelivered: (graceMs: number) => store.undelivered(graceMs),
    redeliver: (question: Question) => relay.redeliver(question),
    clock: systemClock,
    logger,
  };
  const grace = redeliverAfterMs === undefined ? {} : { graceMs: redeliverAfterMs };
  parts.push('undelivered questions sweep', startDeliverySweep(sweep, grace));
}
