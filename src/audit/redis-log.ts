// The audit trail in one Redis Stream: each append trims entries older than the retention (XADD MINID, exact),
// so the stream holds at most `retentionMs` of events. Entry ids are the appending replica's clock (the
// injected one), raised to the stream's last id when that clock runs behind another replica's, so ids stay
// increasing and trimming follows the same clock as the events' `at`. Entries are in arrival order;
// since/until select on the events' own `at` (as PostgreSQL does), reading the stream from CLOCK_SLACK_MS
// before `since` so that an event stamped by a replica whose clock runs behind Redis is still found.
import {
  RedisConnections,
  commandError,
  endClient,
  keys,
  type RedisClient,
  type RedisSetting,
  type StoreLogger,
} from '../redis/index.js';
import type { Clock } from '../clock.js';
import { decodeCursor, encodeCursor } from './errors.js';
import {
  type AuditEvent,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  limitOf,
  matches,
  parseEvent,
} from './types.js';

/** PRODUCT: 30 days unless the config says otherwise. */
export const DEFAULT_RETENTION_MS = 30 * 86_400_000;
/**
 * XADD with the id `<ms>-*` where ms = max(ARGV[1], the stream's last id's ms), trimming ids below ARGV[2]
 * (MINID, exact). KEYS[1] the stream; ARGV[3] the event JSON.
 */
const APPEND_LUA = `
local ms = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  local info = redis.call('XINFO', 'STREAM', KEYS[1])
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then
      local last = tonumber(string.match(info[i + 1], '^(%d+)'))
      if last > ms then ms = last end
    end
  end
end
return redis.call('XADD', KEYS[1], 'MINID', '=', ARGV[2], ms .. '-*', 'e', ARGV[3])`;

/** How far a replica's clock may run behind Redis's (stream ids) and its events still be selected by time, in ms. */
const CLOCK_SLACK_MS = 5 * 60_000;
/** Entries read per XRANGE while filtering. */
const BATCH = 200;
/** Entries one list() call reads at most; a page with filters that match little ends early with a cursor. */
const MAX_SCANNED = 10_000;

export type RedisAuditOptions = RedisSetting & {
  prefix: string;
  logger: StoreLogger;
  clock: Pick<Clock, 'now'>;
  /** Default DEFAULT_RETENTION_MS. */
  retentionMs?: number;
};

type Entry = [id: string, event: AuditEvent];

export class RedisAuditLog implements AuditLog {
  private constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly opts: RedisAuditOptions,
  ) {}

  static async open(opts: RedisAuditOptions): Promise<RedisAuditLog> {
    const k = keys(opts.prefix);
    const redis = await new RedisConnections(opts, opts.logger).command(k.connectionName('audit', 'log'));
    return new RedisAuditLog(redis, k.auditEvents, opts);
  }

  async append(event: AuditEvent): Promise<void> {
    const now = this.opts.clock.now();
    const minId = Math.max(0, now - (this.opts.retentionMs ?? DEFAULT_RETENTION_MS));
    try {
      await this.redis.eval(APPEND_LUA, 1, this.key, String(now), String(minId), JSON.stringify(event));
    } catch (err) {
      throw commandError('audit append', err);
    }
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const limit = limitOf(query);
    const end = query.until === undefined ? '+' : String(query.until + CLOCK_SLACK_MS);
    const since = query.since === undefined ? '-' : String(Math.max(0, query.since - CLOCK_SLACK_MS));
    let start = query.cursor === undefined ? since : `(${decodeCursor('r', query.cursor)}`;
    const events: AuditEvent[] = [];
    for (let scanned = 0; scanned < MAX_SCANNED;) {
      const batch = await this.range(start, end);
      for (const [id, event] of batch) {
        if (!matches(event, query) || !within(event, query)) continue;
        events.push({ ...event, id: encodeCursor('r', id) });
        if (events.length === limit) return { events, cursor: encodeCursor('r', id) };
      }
      const last = batch.at(-1);
      if (!last || batch.length < BATCH) return { events };
      scanned += batch.length;
      start = `(${last[0]}`;
    }
    // Scanned as much as one call may: the client continues from where the scan stopped.
    return { events, cursor: encodeCursor('r', start.slice(1)) };
  }

  async close(): Promise<void> {
    await endClient(this.redis, true);
  }

  private async range(start: string, end: string): Promise<Entry[]> {
    let reply: unknown;
    try {
      reply = await this.redis.call('XRANGE', this.key, start, end, 'COUNT', String(BATCH));
    } catch (err) {
      throw commandError('audit list', err);
    }
    return Array.isArray(reply) ? reply.flatMap((entry) => parseEntry(entry, this.opts.logger)) : [];
  }
}

function within(event: AuditEvent, query: AuditQuery): boolean {
  const at = Date.parse(event.at);
  return (query.since === undefined || at >= query.since) && (query.until === undefined || at < query.until);
}

/** [id, ['e', json]] → the entry; an unreadable one is logged and skipped. */
function parseEntry(entry: unknown, logger: StoreLogger): Entry[] {
  if (!Array.isArray(entry)) return [];
  const id: unknown = entry[0];
  const fields: unknown = entry[1];
  const json: unknown = Array.isArray(fields) ? fields[1] : undefined;
  if (typeof id !== 'string' || typeof json !== 'string') return [];
  const event = parseEvent(json);
  if (event) return [[id, event]];
  logger.warn({ id }, 'audit: unreadable stream entry skipped');
  return [];
}
