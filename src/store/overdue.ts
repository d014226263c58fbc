// How late the timeouts are: the most overdue pending question, read from the due index ({q}:due, scored by
// deadline) on Redis TIME in one script, so the metrics scrape and the timeout watch (timeout-watch.ts) pay one
// command for it however many questions are pending.
import type { Keys, RedisClient } from '../redis/index.js';
import type { StoreScripts } from './scripts.js';

// The due index's first entry and Redis TIME, in one step. KEYS[1] the due index.
// Returns {TIME seconds, TIME microseconds, question id or '', deadline (epoch ms) or ''}.
export const DUE_OLDEST_LUA = `
local t = redis.call('TIME')
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {t[1], t[2], first[1] or '', first[2] or ''}
`;

/** The pending question with the earliest deadline, if any, and Redis TIME when it was read (epoch ms). */
export interface OldestDue {
  now: number;
  oldest: { id: string; deadline: number } | undefined;
}

export async function readOldestDue(cmd: RedisClient & StoreScripts, k: Keys): Promise<OldestDue> {
  const reply = await cmd.dueOldest(k.due);
  const [sec, micro, id, deadline] = Array.isArray(reply) ? reply.map(String) : [];
  const now = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
  if (!id || !deadline) return { now, oldest: undefined };
  return { now, oldest: { id, deadline: Number(deadline) } };
}

/** How far past its deadline the oldest question is, ms; 0 when none is pending or none is past its deadline. */
export const overdueMs = ({ now, oldest }: OldestDue): number =>
  oldest === undefined ? 0 : Math.max(0, now - oldest.deadline);
