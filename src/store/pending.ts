// Reads over the pending indexes, and the per-server admission check for new questions.
import type { RedisClient } from '../redis/index.js';
import type { RateLimit } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import type { StoreLogger } from '../redis/index.js';
import { RateLimitedError } from './errors.js';
import type { Keys } from '../redis/index.js';
import { DETACHED_HOLDER, parseQuestion } from './record.js';
import { readRecords } from './schemas.js';
import type { StoreScripts } from './scripts.js';

/**
 * A person's pending questions, soonest deadline first. Entries whose record has expired or ended without
 * leaving the index (a lost timer) are dropped from it on the way.
 */
export async function pendingFor(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  userId: string,
  logger: StoreLogger,
): Promise<Question[]> {
  const ids = await cmd.zrange(k.user(userId), '0', '-1');
  if (ids.length === 0) return [];
  const records = await readRecords(
    cmd,
    ids.map((id) => k.question(id)),
    k.schema(''),
  );
  const pending: Question[] = [];
  const stale: string[] = [];
  records.forEach((record, i) => {
    const id = ids[i] ?? '';
    const question = readOrSkip(record, id, logger);
    if (question?.state === 'pending') pending.push(question);
    else stale.push(id);
  });
  if (stale.length > 0) await cmd.zrem(k.user(userId), ...stale);
  return pending;
}

function readOrSkip(hash: Record<string, string>, id: string, logger: StoreLogger): Question | undefined {
  try {
    return parseQuestion(hash);
  } catch (err) {
    logger.warn({ err, id }, 'pendingFor: unreadable question record; skipped');
    return undefined;
  }
}

/** Counts one new question of `server`; throws RateLimitedError beyond `limit.max` per window. */
export async function admit(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  server: string,
  limit: RateLimit,
): Promise<void> {
  const reply = (await cmd.serverAdmit(k.rate(server), limit.max, limit.perMs)) as [number, number];
  if (reply[0] !== 1) throw new RateLimitedError(server, Math.max(0, reply[1]), limit.max);
}

/** Most detached questions looked at by one undeliveredSince call. */
const UNDELIVERED_BATCH = 1000;

/**
 * Pending detached questions (API questions, holder DETACHED_HOLDER) created at or before `before` (epoch ms on
 * the Redis clock) whose card was never attached: their creator may have died before posting it. At, not only
 * before: a grace of 0 then takes every such question, even one created in the sweep's own millisecond.
 */
export async function undeliveredBefore(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  before: number,
  logger: StoreLogger,
): Promise<Question[]> {
  const ids = await cmd.zrange(k.held(DETACHED_HOLDER), '0', String(UNDELIVERED_BATCH - 1));
  if (ids.length === 0) return [];
  const records = await readRecords(
    cmd,
    ids.map((id) => k.question(id)),
    k.schema(''),
  );
  return records.flatMap((record, i) => {
    const question = readOrSkip(record, ids[i] ?? '', logger);
    const stuck = question?.state === 'pending' && !question.card && question.createdAt <= before;
    return stuck ? [question] : [];
  });
}
