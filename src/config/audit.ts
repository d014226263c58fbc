// The `audit` section of the config file and AUDIT_DATABASE_URL:
//   audit: { content: none | fields | full, retention: 30d }
import { ConfigError } from './error.js';
import { parseDuration } from './duration.js';
import { KNOWN_KEYS, refuseUnknownKeys } from './known-keys.js';
import { isRecord } from './mapping.js';

export interface AuditConfig {
  /** How much of an accepted answer an event keeps: nothing (default), field names, or the answer. */
  content: 'none' | 'fields' | 'full';
  /** How long the Redis Stream keeps events, in ms. Default 30 days. */
  retentionMs: number;
  /** AUDIT_DATABASE_URL: PostgreSQL also keeps every event (no trimming) and list() reads it. */
  databaseUrl?: string;
}

const DEFAULT_AUDIT_RETENTION_MS = 30 * 86_400_000;
const CONTENT_MODES = ['none', 'fields', 'full'] as const;

export function readAudit(section: unknown, env: Record<string, string | undefined>): AuditConfig {
  const databaseUrl = readDatabaseUrl(env.AUDIT_DATABASE_URL);
  const base = { content: 'none' as const, retentionMs: DEFAULT_AUDIT_RETENTION_MS, ...databaseUrl };
  if (section === undefined || section === null) return base;
  if (!isRecord(section)) {
    throw new ConfigError('audit', 'is not a mapping', 'Write `audit: { content: none }` or leave it out.');
  }
  refuseUnknownKeys('audit', section, KNOWN_KEYS.audit);
  const { content, retention } = section;
  const mode = CONTENT_MODES.find((m) => m === (content ?? 'none'));
  if (mode === undefined) {
    throw new ConfigError(
      'audit.content',
      `"${String(content)}" is not a content mode`,
      'Use none, fields or full.',
    );
  }
  const retentionMs = retention === undefined ? DEFAULT_AUDIT_RETENTION_MS : parseDuration(retention);
  if (retentionMs === undefined || retentionMs < 60_000) {
    throw new ConfigError(
      'audit.retention',
      `"${String(retention)}" is not a duration of at least 1m`,
      'Write a duration such as "30d" or "90d".',
    );
  }
  return { ...base, content: mode, retentionMs };
}

function readDatabaseUrl(value: string | undefined): { databaseUrl?: string } {
  if (value === undefined || value === '') return {};
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new ConfigError(
      'AUDIT_DATABASE_URL',
      'is not a postgres:// URL',
      'Use postgres://user:password@host:5432/database.',
    );
  }
  return { databaseUrl: value };
}
