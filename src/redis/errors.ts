// The persistence error family: every failure of the Redis-backed parts (questions, outbox, Slack state).
import { RelayError } from '../relay/errors.js';

export type StoreErrorCode =
  /** Redis could not be reached, or dropped the command (connection down; nothing is buffered). */
  | 'redis_unavailable'
  /** Redis answered but refused the setting: credentials, TLS, a cluster with uncovered slots, a Sentinel master name. */
  | 'redis_refused'
  /** Redis answered with an error reply (script error, wrong type...) other than the refusals below. */
  | 'redis_error'
  /**
   * Redis refused the command for a passing state of its topology, before running it (a script at its first
   * write, never after one), so nothing was written and the same command can succeed in a moment: READONLY (a
   * replica, as an old master is after a failover), CLUSTERDOWN (a master down before its replica took over, a
   * slot unserved), TRYAGAIN (a multi-key command while its slot migrates), MASTERDOWN (a replica cut off from
   * its master), LOADING (Redis loading its data at start).
   */
  | 'redis_try_again'
  /**
   * Redis refused a write at its `maxmemory` (the OOM reply, `noeviction`). The refused command wrote nothing: Redis
   * refuses a command before running it, and a script at its first write, never after one. A retry once memory is
   * freed (or maxmemory raised) can succeed.
   */
  | 'redis_out_of_memory'
  /** `maxmemory-policy` is not `noeviction` and the store was told to refuse that. */
  | 'not_noeviction'
  /** A stored question hash could not be read back as a Question. */
  | 'bad_record'
  /** The server asked for more new questions than its rate limit allows (see RateLimitedError). */
  | 'rate_limited'
  /** drain() was called: this replica takes no new questions. */
  | 'draining'
  /** A timeout job's finish came before the question's deadline on the Redis clock (see NotDueError). */
  | 'not_due'
  /** The Slack app has no installation for the workspace (or org) asked for. */
  | 'not_installed';

/** RelayError's constructor, typed by its `Code`, takes only a StoreErrorCode and keeps `cause` natively. */
export class StoreError extends RelayError<StoreErrorCode> {
  override name = 'StoreError';
}

/** Hides the password of a redis:// URL so it can go into messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparsable REDIS_URL>';
  }
}
