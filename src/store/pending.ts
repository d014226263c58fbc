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

/** A record as a Question; one that cannot be read is skipped, logged under `reader`'s name. */
export function readOrSkip(
  hash: Record<string, string>,
  id: string,
  logger: StoreLogger,
  reader = 'pendingFor',
): Question | undefined {
  try {
    return parseQuestion(hash);
  } catch (err) {
    logger.warn({ err, id }, `${reader}: unreadable question record; skipped`);
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

/** Questions read per page of an index by undeliveredBefore. */
const UNDELIVERED_BATCH = 1000;
/** Pages of an index read by one undeliveredBefore call, at most. */
const UNDELIVERED_PAGES = 10;

/**
 * Pending questions created at or before `before` (epoch ms on the Redis clock) whose card was never attached,
 * because no live replica will attach it: detached ones (API questions, holder DETACHED_HOLDER), whose creator
 * may have died before posting, and durable rounds' ones, whose replica may have stopped or died with the post
 * still queued. At, not only before: a grace of 0 then takes every such question, even one created in the
 * sweep's own millisecond. They are read from the unattached index, which nothing else keeps: the ones that
 * ended or have their card are dropped from it here, so it holds the questions created since the last sweeps
 * and the undelivered ones, however many others are pending. The detached holder's pending index is read too
 * (its first questions by deadline), for API questions created before that index existed.
 */
export async function undeliveredBefore(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  before: number,
  logger: StoreLogger,
): Promise<Question[]> {
  const found = new Map<string, Question>();
  for (const question of await unattachedIn(cmd, k, k.unattached, logger)) found.set(question.id, question);
  const legacy = { keepAttached: true, pages: 1 };
  for (const question of await unattachedIn(cmd, k, k.held(DETACHED_HOLDER), logger, legacy))
    found.set(question.id, question);
  return [...found.values()].filter((question) => question.createdAt <= before);
}

/**
 * The pending questions without a card in index `key`, by deadline, in pages (at most `pages`); the ones that
 * ended (or have their card, unless `keepAttached`) are dropped from it as each page is read.
 */
async function unattachedIn(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  key: string,
  logger: StoreLogger,
  { keepAttached = false, pages = UNDELIVERED_PAGES } = {},
): Promise<Question[]> {
  const unattached: Question[] = [];
  let kept = 0;
  for (let page = 0; page < pages; page++) {
    const ids = await cmd.zrange(key, String(kept), String(kept + UNDELIVERED_BATCH - 1));
    const records = await readRecords(
      cmd,
      ids.map((id) => k.question(id)),
      k.schema(''),
    );
    const done: string[] = [];
    records.forEach((record, i) => {
      const id = ids[i] ?? '';
      const question = readOrSkip(record, id, logger);
      if (question?.state === 'pending' && !question.card) unattached.push(question);
      if (question?.state !== 'pending' || (!keepAttached && question.card !== undefined)) done.push(id);
    });
    if (done.length > 0) await cmd.zrem(key, ...done);
    kept += ids.length - done.length;
    if (ids.length < UNDELIVERED_BATCH) break;
  }
  return unattached;
}
