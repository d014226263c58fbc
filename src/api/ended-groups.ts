// The ended stream's entries as events, and the Redis side of its consumer groups (EndedEvents.consume in
// ended.ts): a group created at the stream's end, created again at its start once Redis lost it, each batch
// acknowledged by one XACK, and the consumers dead replicas left removed after a claim.
import {
  removeDeadConsumers,
  type DeadConsumers,
  type RedisClient,
  type StoreLogger,
} from '../redis/index.js';

export interface EndedEvent {
  /** The question's or call's id. */
  id: string;
  kind: 'question' | 'call';
  /** The state it ended in: accepted, declined or cancelled (a call: completed or failed). */
  state: string;
  /** The stream entry id, unique per end. */
  entryId: string;
  /** A question answering a durable 2026 round's request (src/rounds records its end in the round). */
  round?: true;
}

/** Stream entries as XREAD, XREADGROUP and XAUTOCLAIM answer them: [entry id, [field, value, …]]. */
export type Entries = [string, string[]][];

export function toEvent([entryId, fields]: [string, string[]]): EndedEvent {
  const field = (name: string): string => {
    const at = fields.indexOf(name);
    return at % 2 === 0 ? (fields[at + 1] ?? '') : '';
  };
  const kind = field('kind') === 'call' ? 'call' : 'question';
  const round = field('round') === '1' ? { round: true as const } : {};
  return { id: field('id'), kind, state: field('state'), entryId, ...round };
}

/**
 * Creates the group at the stream's end (`$`) unless it exists (two replicas may race: the loser finds it
 * there): the ends before this deployment had the group are not its work.
 */
export function createGroup(redis: RedisClient, key: string, group: string): Promise<void> {
  return createGroupAt(redis, key, group, '$');
}

/**
 * Redis answered NOGROUP: it lost its data (a restart without persistence, a failover to an empty node) and the
 * stream was made again by the next finish, without its groups. The group is created again at `0-0`, not `$`:
 * every entry of a stream made since is an end nobody handled yet (`$` would skip those written between the loss
 * and now: their webhooks never sent, their rounds' answers never recorded); handlers are idempotent, so an end
 * seen twice is harmless. MKSTREAM makes the stream if no end came yet; another replica may recreate it first.
 */
export async function recreateLostGroup(
  redis: RedisClient,
  key: string,
  group: string,
  logger: StoreLogger,
): Promise<void> {
  logger.warn({ group }, 'ended stream group was gone (Redis lost its data); created again from its start');
  await createGroupAt(redis, key, group, '0-0');
}

async function createGroupAt(
  redis: RedisClient,
  key: string,
  group: string,
  start: '$' | '0-0',
): Promise<void> {
  try {
    await redis.xgroup('CREATE', key, group, start, 'MKSTREAM');
  } catch (err) {
    const groups = (await redis.xinfo('GROUPS', key)) as unknown[][];
    if (!groups.some((g) => g.includes(group))) throw err;
  }
}

/**
 * A group's batch handler: one XACK per batch, not per entry (at 200 ends/s that was a round trip and a reply to
 * parse per end on every replica). Each entry still counts as handled only once its handler resolved, so an entry
 * whose handler threw, and those after it, stay pending and are claimed again.
 */
export function handledThenAcked(
  redis: RedisClient,
  key: string,
  group: string,
  handler: (event: EndedEvent) => Promise<void>,
): (entries: Entries) => Promise<void> {
  return async (entries) => {
    const handled: string[] = [];
    try {
      for (const entry of entries) {
        await handler(toEvent(entry));
        handled.push(entry[0]);
      }
    } finally {
      if (handled.length > 0) await redis.xack(key, group, ...handled);
    }
  };
}

/**
 * After a claim pass: the group's consumers of dead replicas, with nothing left pending, removed
 * (redis/dead-consumers.ts). A failure is only reported: the next claim pass tries again, and reading goes on.
 * Once `stopped` (the loop's stop, which closes the connection under the pass) there is no next pass and the
 * failure is the stop's own doing: nothing is said.
 */
export async function removeDeadOf(
  redis: RedisClient,
  of: DeadConsumers,
  logger: StoreLogger,
  stopped: AbortSignal,
): Promise<void> {
  try {
    const removed = await removeDeadConsumers(redis, of);
    if (removed.length > 0) {
      logger.info({ group: of.group, removed }, 'ended stream group: consumers of dead replicas removed');
    }
  } catch (err) {
    if (stopped.aborted) return;
    logger.warn({ err, group: of.group }, 'ended stream group: removing dead consumers failed; next pass');
  }
}
