// The Redis side of the PostgreSQL feed: the audit stream's consumer group, whose entries are delivered by the
// append script itself (redis-log.ts), read back here when they are still pending: this replica's own after a
// failed store, and any replica's once idle for long (claimed: its replica died before storing them); the
// consumers dead replicas left, once nothing is pending on them, removed (redis/dead-consumers.ts).
import {
  RedisConnections,
  commandError,
  endClient,
  keys,
  removeDeadConsumers,
  type RedisClient,
  type RedisSetting,
  type StoreLogger,
} from '../redis/index.js';
import { parseEvent, type StreamEntry } from './types.js';

/** The audit stream's consumer group that feeds PostgreSQL. */
export const POSTGRES_GROUP = 'postgres';

export type AuditStreamGroupOptions = RedisSetting & {
  prefix: string;
  logger: StoreLogger;
  /** This replica's consumer in the group (its holder id). */
  consumer: string;
};

export class AuditStreamGroup {
  readonly name = POSTGRES_GROUP;

  private constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    readonly consumer: string,
    /** A replica's lease key by its holder id (Keys.lease). */
    private readonly lease: (holder: string) => string,
  ) {}

  static async open(opts: AuditStreamGroupOptions): Promise<AuditStreamGroup> {
    const k = keys(opts.prefix);
    const redis = await new RedisConnections(opts, opts.logger).command(k.connectionName('audit', 'feed'));
    return new AuditStreamGroup(redis, k.auditEvents, opts.consumer, (holder) => k.lease(holder));
  }

  /** This consumer's pending entries after `after` (a stream id; '0-0' for all), at most `count`, oldest first. */
  async ownPending(after: string, count: number): Promise<StreamEntry[]> {
    const { redis, key, name, consumer } = this;
    const reply: unknown = await attempt('audit pending read', () =>
      redis.xreadgroup('GROUP', name, consumer, 'COUNT', count, 'STREAMS', key, after),
    );
    const first: unknown = Array.isArray(reply) ? reply[0] : undefined;
    return Array.isArray(first) ? entriesOf(first[1]) : [];
  }

  /**
   * Claims, for this consumer, up to `count` entries pending for at least `minIdleMs` on any consumer, from
   * `cursor`; `next` is '0-0' once the whole pending list was looked at. Entries trimmed meanwhile come back
   * without their event (XAUTOCLAIM has already dropped them from the pending list).
   */
  async claimIdle(
    minIdleMs: number,
    cursor: string,
    count: number,
  ): Promise<{ next: string; entries: StreamEntry[] }> {
    const { redis, key, name, consumer } = this;
    const reply: unknown = await attempt('audit claim', () =>
      redis.xautoclaim(key, name, consumer, minIdleMs, cursor, 'COUNT', count),
    );
    const parts: unknown[] = Array.isArray(reply) ? (reply as unknown[]) : [];
    const [next, claimed, deleted] = parts;
    const trimmed = Array.isArray(deleted) ? deleted.filter((id) => typeof id === 'string') : [];
    return {
      next: typeof next === 'string' ? next : '0-0',
      entries: [...entriesOf(claimed), ...trimmed.map((streamId: string) => ({ streamId }))],
    };
  }

  /**
   * Removes the consumers of dead replicas (no lease, idle at least `minIdleMs`) with nothing pending, at most
   * DEAD_CONSUMERS_PER_PASS; returns their names.
   */
  async removeDead(minIdleMs: number): Promise<string[]> {
    const { redis, key, name: group, consumer: self, lease } = this;
    return attempt('audit dead consumers', () =>
      removeDeadConsumers(redis, { key, group, self, minIdleMs, lease }),
    );
  }

  async ack(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await attempt('audit ack', () => this.redis.xack(this.key, this.name, ...ids));
  }

  /** Leaves the group when nothing is pending for this consumer (what is pending stays for a survivor). */
  async close(): Promise<void> {
    // A consumer left behind (Redis unreachable, or no event appended yet: no group) costs only its name in the
    // group's list, so a failed leave does not fail the shutdown.
    await this.leave().catch(() => undefined);
    await endClient(this.redis, true);
  }

  private async leave(): Promise<void> {
    const { redis, key, name, consumer } = this;
    const pending = await attempt('audit pending count', () =>
      redis.xpending(key, name, '-', '+', 1, consumer),
    );
    if (Array.isArray(pending) && pending.length === 0) {
      await attempt('audit leave', () => redis.xgroup('DELCONSUMER', key, name, consumer));
    }
  }
}

async function attempt<T>(what: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (err) {
    throw commandError(what, err);
  }
}

/** [[id, ['e', json] | null], …] → entries; a trimmed entry (null fields) or an unreadable one has no event. */
function entriesOf(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry: unknown): StreamEntry[] => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return [];
    const streamId = entry[0];
    const fields: unknown = entry[1];
    const json: unknown = Array.isArray(fields) ? fields[1] : undefined;
    const event = typeof json === 'string' ? parseEvent(json) : undefined;
    return [event ? { streamId, event } : { streamId }];
  });
}
