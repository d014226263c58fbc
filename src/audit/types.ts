// The audit trail's words: one event per question or call created and ended, and per webhook that gave up.
import type { Content, EndReason, Outcome } from '../relay/types.js';

export type AuditEventType =
  'question.created' | 'question.ended' | 'call.created' | 'call.ended' | 'webhook.gave_up';

/** How much of an accepted answer an event keeps (config `audit.content`): nothing, field names, or all. */
export type AuditContentMode = 'none' | 'fields' | 'full';

/** Who asked: an MCP server's tool run by a person, or an API client. */
export type AuditSource =
  | { kind: 'mcp'; server: string; tool?: string; user: string }
  | { kind: 'api'; client: string; user?: string; channel?: string };

/** One event as stored and listed. `server`, `user` and `client` are what list() filters on. */
export interface AuditEvent {
  /** Opaque position of the event, assigned by the log it was read from. */
  id?: string;
  type: AuditEventType;
  /** When the event was recorded, RFC 3339. */
  at: string;
  question?: string;
  call?: string;
  server?: string;
  tool?: string;
  /** The person who ran the tool, or on whose behalf an API call runs, or who was asked. */
  user?: string;
  /** The channel an API question was asked of (anyone in it may answer); such an event names no `user`. */
  channel?: string;
  client?: string;
  action?: Outcome['action'];
  reason?: EndReason;
  /** Slack user id of the person who answered, declined or closed it. */
  answeredBy?: string;
  /** A call's end: completed or failed. */
  status?: 'completed' | 'failed';
  createdAt?: string;
  endedAt?: string;
  /** Only with `audit.content: full`. */
  content?: Content;
  /** Only with `audit.content: fields`: the answer's field names. */
  fields?: string[];
  webhook?: { deliveryId: string; url: string; attempts: number; code: string; reason: string };
}

export interface AuditQuery {
  /** Inclusive lower bound of `at`, epoch ms. */
  since?: number;
  /** Exclusive upper bound of `at`, epoch ms. */
  until?: number;
  server?: string;
  /** Matches `user` or `answeredBy`. */
  user?: string;
  client?: string;
  /** From a previous page's `cursor`, or an event's `id`: continue after it, in stored order. */
  cursor?: string;
  /** At most this many events (default 100, at most 1000). */
  limit?: number;
}

export interface AuditPage {
  /**
   * In the order the log stored them (the Redis Stream's ids, PostgreSQL's `seq`), which is `at` order but for an
   * event stored late (a backlog after a PostgreSQL outage): it comes after those stored before it, so a client
   * following the cursor is still given it.
   */
  events: AuditEvent[];
  /** Present when there may be more: pass it as `cursor` for the next page. */
  cursor?: string;
}

/** Where events go and are read back from (Redis Stream, PostgreSQL); one contract suite runs against both. */
export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  list(query: AuditQuery): Promise<AuditPage>;
  close(): Promise<void>;
}

/**
 * An entry of the audit stream as the PostgreSQL feed reads it back: its id and its event, absent when the entry
 * was trimmed (older than the retention) before it was stored, or cannot be read.
 */
export interface StreamEntry {
  streamId: string;
  event?: AuditEvent;
}

/** What the Redis Stream hands each batch it appended to (postgres-feed.ts), in the batch's order. */
export interface AuditFeed {
  /** The stream's consumer group every appended entry is delivered to, and this replica's consumer in it. */
  readonly group: string;
  readonly consumer: string;
  /** Stores the entries where they go; never rejects (a failure is reported and retried by the feed). */
  take(entries: StreamEntry[]): Promise<void>;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export function limitOf(query: AuditQuery): number {
  return Math.min(Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
}

/** True when the event passes the query's server, user and client filters. */
export function matches(event: AuditEvent, query: AuditQuery): boolean {
  if (query.server !== undefined && event.server !== query.server) return false;
  if (query.client !== undefined && event.client !== query.client) return false;
  if (query.user !== undefined && event.user !== query.user && event.answeredBy !== query.user) return false;
  return true;
}

/** Every AuditEventType, for checking stored values and for the API's schemas. */
export const AUDIT_EVENT_TYPES: readonly AuditEventType[] = [
  'question.created',
  'question.ended',
  'call.created',
  'call.ended',
  'webhook.gave_up',
];

function isAuditEvent(value: unknown): value is AuditEvent {
  if (typeof value !== 'object' || value === null || !('type' in value) || !('at' in value)) return false;
  return (
    typeof value.type === 'string' &&
    AUDIT_EVENT_TYPES.some((type) => type === value.type) &&
    typeof value.at === 'string'
  );
}

/** An event read back from storage (written by append), or undefined when it is not one. */
export function parseEvent(json: string): AuditEvent | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isAuditEvent(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
