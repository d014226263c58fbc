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
  type AuditFeed,
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
 * XADDs each event of a batch with the id `<ms>-*`, ms = max(its ARGV ms, the stream's last id's ms), trimming
 * ids below its MINID (exact), and returns the ids. KEYS[1] the stream; ARGV[1] the feed's consumer group ('' for
 * none), ARGV[2] this replica's consumer in it, then (ms, minId, event JSON) per event, in append order. The
 * stream's last id is read once per batch (XINFO STREAM), then carried from each XADD's reply. With a group, the
 * batch is delivered to the consumer in the same script (XREADGROUP '>', no BLOCK), so an entry is pending for
 * its replica from the moment it exists: if that replica dies before storing it, another claims it. The group is
 * created at the stream's end when missing, and moved there when entries it never got were added without it
 * (a replica of a version before the feed, which wrote PostgreSQL itself), so each read delivers just the batch.
 */
const APPEND_LUA = `
local group = ARGV[1]
local last, lastId, exists = 0, '0-0', redis.call('EXISTS', KEYS[1]) == 1
if exists then
  local info = redis.call('XINFO', 'STREAM', KEYS[1])
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then
      lastId = info[i + 1]
      last = tonumber(string.match(lastId, '^(%d+)'))
    end
  end
end
if group ~= '' then
  local found = false
  if exists then
    for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
      local name, delivered
      for i = 1, #g, 2 do
        if g[i] == 'name' then name = g[i + 1] elseif g[i] == 'last-delivered-id' then delivered = g[i + 1] end
      end
      if name == group then
        found = true
        if delivered ~= lastId then redis.call('XGROUP', 'SETID', KEYS[1], group, '$') end
      end
    end
  end
  if not found then redis.call('XGROUP', 'CREATE', KEYS[1], group, '$', 'MKSTREAM') end
end
local ids = {}
for i = 3, #ARGV, 3 do
  local ms = tonumber(ARGV[i])
  if last > ms then ms = last end
  local id = redis.call('XADD', KEYS[1], 'MINID', '=', ARGV[i + 1], ms .. '-*', 'e', ARGV[i + 2])
  last = tonumber(string.match(id, '^(%d+)'))
  ids[#ids + 1] = id
end
if group ~= '' then
  redis.call('XREADGROUP', 'GROUP', group, ARGV[2], 'COUNT', #ids, 'STREAMS', KEYS[1], '>')
end
return ids`;

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
  /** Given each appended batch (its entries pending in the feed's group) before the batch's appends resolve. */
  feed?: AuditFeed;
};

type Entry = [id: string, event: AuditEvent];

/** An append waiting for its batch: the script's three arguments, the event and its caller's promise. */
interface Queued {
  args: [ms: string, minId: string, json: string];
  event: AuditEvent;
  done: { resolve: () => void; reject: (err: unknown) => void };
}

/** The client with APPEND_LUA registered (run by EVALSHA, loaded again by ioredis when Redis lacks it). */
type AppendingClient = RedisClient & {
  auditAppend(key: string, ...args: string[]): Promise<string[]>;
};

export class RedisAuditLog implements AuditLog {
  /** Appends made since the last batch went out; they go together at the next setImmediate. */
  private queued: Queued[] = [];
  /** The batches being written (close waits for them). */
  private readonly writing = new Set<Promise<void>>();

  private constructor(
    private readonly redis: AppendingClient,
    private readonly key: string,
    private readonly opts: RedisAuditOptions,
  ) {}

  static async open(opts: RedisAuditOptions): Promise<RedisAuditLog> {
    const k = keys(opts.prefix);
    const redis = await new RedisConnections(opts, opts.logger).command(k.connectionName('audit', 'log'));
    redis.defineCommand('auditAppend', { numberOfKeys: 1, lua: APPEND_LUA });
    return new RedisAuditLog(redis as AppendingClient, k.auditEvents, opts);
  }

  /**
   * Resolves once the event is in the stream. Appends made in the same turn of the event loop (every question
   * ended by the requests one poll phase read) go to Redis as one script call: one socket write and one read of
   * the stream's last id for the batch instead of one per event (issue #19 goal 6, 200 submissions/s). With a
   * feed, resolves once the feed has taken the batch (stored it in PostgreSQL, or reported it kept pending).
   */
  append(event: AuditEvent): Promise<void> {
    const now = this.opts.clock.now();
    const minId = Math.max(0, now - (this.opts.retentionMs ?? DEFAULT_RETENTION_MS));
    return new Promise<void>((resolve, reject) => {
      if (this.queued.length === 0) setImmediate(() => this.writeQueued());
      this.queued.push({
        args: [String(now), String(minId), JSON.stringify(event)],
        event,
        done: { resolve, reject },
      });
    });
  }

  private writeQueued(): void {
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    const { feed } = this.opts;
    const write = this.redis
      .auditAppend(this.key, feed?.group ?? '', feed?.consumer ?? '', ...batch.flatMap((q) => q.args))
      .then(
        async (ids) => {
          await feed?.take(ids.map((streamId, i) => ({ streamId, event: batch[i]?.event })));
          batch.forEach((q) => q.done.resolve());
        },
        (err: unknown) => {
          const failed = commandError('audit append', err);
          batch.forEach((q) => q.done.reject(failed));
        },
      );
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const limit = limitOf(query);
    const end = query.until === undefined ? '+' : String(query.until + CLOCK_SLACK_MS);
    const since = query.since === undefined ? '-' : String(Math.max(0, query.since - CLOCK_SLACK_MS));
    let start = query.cursor === undefined ? since : `(${decodeCursor('r', query.cursor, isStreamId)}`;
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
    // Appends still queued go out first (their setImmediate is already scheduled), then the batches being written.
    if (this.queued.length > 0) this.writeQueued();
    await Promise.all([...this.writing]);
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

/** Each part of a stream id is an unsigned 64-bit number. */
const U64_MAX = 2n ** 64n - 1n;

/**
 * A stream id XRANGE takes as an exclusive start: `<ms>-<seq>`, each at most 2^64 - 1, and not the very last id
 * (nothing comes after it; Redis refuses that interval).
 */
function isStreamId(position: string): boolean {
  const parts = /^(\d{1,20})-(\d{1,20})$/.exec(position);
  if (!parts?.[1] || !parts[2]) return false;
  const ms = BigInt(parts[1]);
  const seq = BigInt(parts[2]);
  return ms <= U64_MAX && seq <= U64_MAX && !(ms === U64_MAX && seq === U64_MAX);
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
