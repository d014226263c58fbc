// How full the Redis behind a client is, from INFO memory. With `noeviction` (which the bot asks for), a Redis past
// its maxmemory refuses every write with OOM while still answering PING: /readyz and the metrics show it from this,
// since nothing else an operator watches would. Redis's own test, which this follows: a write is refused when
// used_memory, less mem_not_counted_for_evict (replication and AOF buffers), exceeds maxmemory (0: no limit).
import { Cluster } from 'ioredis';
import type { RedisClient } from './topology.js';

export interface RedisMemory {
  /** Bytes Redis counts against maxmemory: used_memory less mem_not_counted_for_evict. */
  usedBytes: number;
  /** maxmemory in bytes; 0 when Redis has no limit. */
  maxBytes: number;
}

/** True when Redis refuses writes for memory now: it has a limit and counts more than it. */
export const outOfMemory = (memory: RedisMemory): boolean =>
  memory.maxBytes > 0 && memory.usedBytes > memory.maxBytes;

/** The memory fields of an INFO memory reply (`name:value` lines); undefined when a needed one is missing. */
export function parseMemoryInfo(info: string): RedisMemory | undefined {
  const fields = new Map<string, number>();
  for (const line of info.split(/\r?\n/)) {
    const [name, value] = line.split(':', 2);
    if (name !== undefined && value !== undefined) fields.set(name, Number(value));
  }
  const used = fields.get('used_memory');
  const max = fields.get('maxmemory');
  // Redis before 6.0 has no mem_not_counted_for_evict: nothing is left out then.
  const notCounted = fields.get('mem_not_counted_for_evict') ?? 0;
  if (used === undefined || max === undefined || !Number.isFinite(used + max + notCounted)) return undefined;
  return { usedBytes: Math.max(0, used - notCounted), maxBytes: max };
}

/**
 * The memory of the Redis behind `client`. On a Cluster every master has its own limit and refuses writes to its
 * own slots: the one nearest its limit (or furthest past it) is reported, since it refuses first.
 */
export async function memoryOf(client: RedisClient): Promise<RedisMemory | undefined> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  const read = await Promise.all(nodes.map(async (node) => parseMemoryInfo(await node.info('memory'))));
  const known = read.filter((memory): memory is RedisMemory => memory !== undefined);
  return known.reduce<RedisMemory | undefined>(
    (fullest, memory) => (fullest === undefined || fill(memory) > fill(fullest) ? memory : fullest),
    undefined,
  );
}

/** How full a Redis is, as a share of its limit; 0 without one. */
const fill = (memory: RedisMemory): number => (memory.maxBytes > 0 ? memory.usedBytes / memory.maxBytes : 0);
