// Each person's recent answers, for the App Home inbox: a capped Redis list per person and workspace, newest first
// (one list across workspaces let ten answers in one workspace push out every other workspace's).
//
// Key `answers` (src/redis/layout.ts): a list of JSON AnswerRecord entries, at most `max`; the key expires
// `ttlSec` after the latest entry (the deployment's retention of finished questions).
//
// Only one key per command, so it needs no hash tag on Redis Cluster.
import type { RedisClient } from '../../redis/index.js';
import { isEndReason } from '../../relay/types.js';
import type { AnswerRecord } from './ports.js';
import type { StoreLogger } from '../../redis/index.js';

/** Answers kept per person and workspace. */
export const HISTORY_MAX = 10;
/** Characters of the question's message kept in an entry (the Home tab shows fewer). */
const MESSAGE_KEPT = 500;

/** Adds `record` as the newest entry of the list at `key`, trims it to `max` and renews its expiry. */
export async function recordAnswer(
  cmd: RedisClient,
  key: string,
  record: AnswerRecord,
  limits: { max: number; ttlSec: number },
): Promise<void> {
  const entry: AnswerRecord = {
    ...record,
    message: Array.from(record.message).slice(0, MESSAGE_KEPT).join(''),
  };
  const replies = await cmd
    .multi()
    .lpush(key, JSON.stringify(entry))
    .ltrim(key, 0, limits.max - 1)
    .expire(key, limits.ttlSec)
    .exec();
  const failed = replies?.find(([err]) => err !== null);
  if (failed?.[0]) throw failed[0];
}

/** The newest `limit` entries at `key`, newest first; entries that cannot be read are skipped (logged). */
export async function recentAnswers(
  cmd: RedisClient,
  key: string,
  limit: number,
  logger: StoreLogger,
): Promise<AnswerRecord[]> {
  const raw = await cmd.lrange(key, 0, limit - 1);
  return raw.flatMap((text) => {
    const record = parseRecord(text);
    if (!record) logger.warn({ key }, 'recentAnswers: unreadable history entry; skipped');
    return record ? [record] : [];
  });
}

const STATES: readonly string[] = ['accepted', 'declined', 'cancelled'] satisfies AnswerRecord['state'][];

const isState = (v: unknown): v is AnswerRecord['state'] => typeof v === 'string' && STATES.includes(v);
const isObject = (v: unknown): v is Partial<Record<string, unknown>> => typeof v === 'object' && v !== null;

function parseRecord(text: string): AnswerRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(v)) return undefined;
  const { questionId, server, message, state, reason, at, mode } = v;
  const valid =
    typeof questionId === 'string' &&
    typeof server === 'string' &&
    typeof message === 'string' &&
    isState(state) &&
    isEndReason(reason) &&
    typeof at === 'number' &&
    Number.isSafeInteger(at) &&
    (mode === 'form' || mode === 'url');
  return valid ? { questionId, server, message, state, reason, at, mode } : undefined;
}
