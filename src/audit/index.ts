// The audit trail: who asked what and who answered, kept in a Redis Stream (30 days by default) and, when
// AUDIT_DATABASE_URL is set, in PostgreSQL, fed from the stream. Front door of src/audit.
import { randomBytes } from 'node:crypto';
import type { AppConfig, AuditConfig } from '../config/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Clock } from '../clock.js';
import type { RedisSetting, StoreLogger } from '../redis/index.js';
import { Audit, type AuditOptions } from './audit.js';
import { PostgresFeed } from './postgres-feed.js';
import { PostgresAuditLog } from './postgres-log.js';
import { RedisAuditLog } from './redis-log.js';
import { AuditStreamGroup } from './stream-group.js';

export { Audit, type AuditOptions } from './audit.js';
export { AuditError, type AuditErrorCode } from './errors.js';
export type { AuditedCall, GivenUpDelivery } from './events.js';
export { CLAIM_EVERY_MS, CLAIM_IDLE_MS, PostgresFeed, type PostgresFeedOptions } from './postgres-feed.js';
export { PostgresAuditLog, type AuditRow } from './postgres-log.js';
export { AuditStreamGroup, POSTGRES_GROUP } from './stream-group.js';
export { auditedToolRuns } from './tool-runs.js';
export { DEFAULT_RETENTION_MS, RedisAuditLog } from './redis-log.js';
export { AUDIT_EVENT_TYPES } from './types.js';
export type {
  AuditContentMode,
  AuditEvent,
  AuditEventType,
  AuditFeed,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditSource,
} from './types.js';

export interface OpenAuditDeps {
  redis: RedisSetting & { prefix: string };
  logger: StoreLogger & { error(obj: object, msg: string): void };
  clock: Pick<Clock, 'now' | 'schedule'>;
  /** This replica's name in the audit stream's consumer group (its holder id); default a random one. */
  consumer?: string;
  sourceOf?: AuditOptions['sourceOf'];
}

/**
 * Opens the Redis log; with a database URL, also PostgreSQL (creating or updating its table) fed from the stream,
 * which list() reads. close() closes them all.
 */
export async function openAudit(config: AuditConfig | undefined, deps: OpenAuditDeps): Promise<Audit> {
  const { logger, clock } = deps;
  const common = {
    content: config?.content ?? 'none',
    clock,
    logger,
    ...(deps.sourceOf ? { sourceOf: deps.sourceOf } : {}),
  };
  if (!config?.databaseUrl) {
    const stream = await openStream(config, deps);
    return new Audit({ ...common, logs: [stream], reader: stream });
  }
  const postgres = await PostgresAuditLog.open(config.databaseUrl);
  const consumer = deps.consumer ?? randomBytes(6).toString('hex');
  const feed = await AuditStreamGroup.open({ ...deps.redis, logger, consumer }).then(
    (group) => new PostgresFeed({ postgres, group, logger, clock }),
    async (err: unknown) => {
      await postgres.close();
      throw err;
    },
  );
  const stream = await openStream(config, deps, feed).catch(async (err: unknown) => {
    await feed.close();
    await postgres.close();
    throw err;
  });
  return new Audit({ ...common, logs: [stream], reader: postgres, closeAfter: [feed, postgres] });
}

function openStream(
  config: AuditConfig | undefined,
  { redis, logger, clock }: OpenAuditDeps,
  feed?: PostgresFeed,
): Promise<RedisAuditLog> {
  const retention = config ? { retentionMs: config.retentionMs } : {};
  return RedisAuditLog.open({ ...redis, logger, clock, ...retention, ...(feed ? { feed } : {}) });
}

/** Opens the audit trail for the composition root; its close (after the relay has stopped) is pushed on `parts`. */
export async function startAudit(
  config: AppConfig,
  deps: Omit<OpenAuditDeps, 'redis'>,
  parts: Lifecycle,
): Promise<Audit> {
  const audit = await openAudit(config.audit, { ...deps, redis: config.redis });
  parts.push('audit', () => audit.close());
  return audit;
}
