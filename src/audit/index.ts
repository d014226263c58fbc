// The audit trail: who asked what and who answered, kept in a Redis Stream (30 days by default) and, when
// AUDIT_DATABASE_URL is set, in PostgreSQL. Front door of src/audit.
import type { AppConfig, AuditConfig } from '../config/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Clock } from '../clock.js';
import type { RedisSetting, StoreLogger } from '../redis/index.js';
import { Audit, type AuditOptions } from './audit.js';
import { PostgresAuditLog } from './postgres-log.js';
import { RedisAuditLog } from './redis-log.js';

export { Audit, type AuditOptions } from './audit.js';
export { AuditError, type AuditErrorCode } from './errors.js';
export type { AuditedCall, GivenUpDelivery } from './events.js';
export { PostgresAuditLog } from './postgres-log.js';
export { auditedToolRuns } from './tool-runs.js';
export { DEFAULT_RETENTION_MS, RedisAuditLog } from './redis-log.js';
export { AUDIT_EVENT_TYPES } from './types.js';
export type {
  AuditContentMode,
  AuditEvent,
  AuditEventType,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditSource,
} from './types.js';

export interface OpenAuditDeps {
  redis: RedisSetting & { prefix: string };
  logger: StoreLogger & { error(obj: object, msg: string): void };
  clock: Pick<Clock, 'now'>;
  sourceOf?: AuditOptions['sourceOf'];
}

/** Opens the Redis log, and the PostgreSQL one (creating its table) when configured. close() closes both. */
export async function openAudit(config: AuditConfig | undefined, deps: OpenAuditDeps): Promise<Audit> {
  const { redis, logger, clock } = deps;
  const retention = config ? { retentionMs: config.retentionMs } : {};
  const stream = await RedisAuditLog.open({ ...redis, logger, clock, ...retention });
  let postgres: PostgresAuditLog | undefined;
  try {
    if (config?.databaseUrl) postgres = await PostgresAuditLog.open(config.databaseUrl);
  } catch (err) {
    await stream.close();
    throw err;
  }
  return new Audit({
    logs: postgres ? [stream, postgres] : [stream],
    reader: postgres ?? stream,
    content: config?.content ?? 'none',
    clock,
    logger,
    ...(deps.sourceOf ? { sourceOf: deps.sourceOf } : {}),
  });
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
