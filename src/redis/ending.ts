// Ending Redis connections promptly in any state, so that a stop after a Redis outage does not wait for Redis.
// ioredis's disconnect() of a client between reconnect attempts (status 'reconnecting': its socket is already
// gone) only cancels the next attempt: no 'end' follows, and the commands queued for the reconnect (a blocked
// read, BullMQ's QUIT) never settle. Whatever awaited them hung for as long as Redis stayed down: a stop with
// Redis killed never finished (the ended-events loop, the outbox's BullMQ closes). Here such a client is ended
// for real, a graceful QUIT has a bound, and BullMQ objects whose connections are down are closed by dropping
// those connections first.
import { answerWithin, settleWithin } from '../settle.js';
import type { StoreLogger } from './connection.js';

/** Longest a graceful QUIT may wait for its reply before the socket is dropped, in ms (a hung Redis never answers). */
export const QUIT_WITHIN_MS = 1_000;
/**
 * Longest endClient waits for a dropped client's 'end', in ms: ioredis ends a socket Redis does not close (a hung
 * Redis) after its disconnectTimeout, 2 s by default.
 */
const END_WITHIN_MS = 3_000;
/** Longest a BullMQ close may take once its connections were dropped, in ms (it then only settles its state). */
const DROPPED_CLOSE_MS = 2_000;

/** What ending needs of a client: ioredis's Redis and Cluster have it, and so has BullMQ's view of them. */
export interface EndableClient {
  readonly status: string;
  readonly isCluster: boolean;
  connect(): Promise<void>;
  disconnect(): void;
  quit(): Promise<unknown>;
  once(event: 'end', listener: () => void): unknown;
}

/**
 * Ends a client and resolves once it has ended (at most END_WITHIN_MS after the socket is dropped), its queued
 * commands rejected. `graceful` sends QUIT after pending replies when connected, for at most QUIT_WITHIN_MS;
 * otherwise the socket is dropped at once (needed while a blocking read holds the connection).
 */
export async function endClient(redis: EndableClient, graceful: boolean): Promise<void> {
  if (redis.status === 'end') return;
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  if (redis.status === 'reconnecting' || redis.status === 'close') {
    endBetweenAttempts(redis);
    // A Cluster between attempts has no node left to close, so no 'end' follows; its retry is cancelled.
    if (!redis.isCluster) await settleWithin([ended], END_WITHIN_MS);
    return;
  }
  if (graceful && redis.status === 'ready') {
    redis.quit().catch(() => undefined);
    if (await settleWithin([ended], QUIT_WITHIN_MS)) return;
  }
  redis.disconnect();
  await settleWithin([ended], END_WITHIN_MS);
}

/**
 * Cancels the pending reconnect, then starts an attempt and cancels it before its socket is made: ioredis
 * rejects that attempt, fails every queued command with "Connection is closed" and emits 'end' (a bare
 * disconnect() would leave them waiting for a reconnect that never comes).
 */
function endBetweenAttempts(redis: EndableClient): void {
  redis.disconnect();
  if (redis.isCluster) return;
  redis.connect().catch(() => undefined);
  redis.disconnect();
}

/** A BullMQ Worker, Queue or QueueEvents, with the connections its backend holds. */
export interface QueueOwner {
  close(): Promise<void>;
  getBackend(): {
    readonly client: Promise<EndableClient>;
    readonly blockingClient?: Promise<EndableClient> | undefined;
  };
}

/**
 * Closes `owner`: gracefully (running jobs finish, locks are released) within `graceMs` while all its
 * connections are ready. Otherwise, and once the grace ran out, its connections are dropped first, so the close
 * settles instead of queueing QUIT behind commands that wait for Redis to come back. Resolves false when even
 * then the close did not settle (the caller logs what it gave up on).
 */
export async function closeQueueOwner(owner: QueueOwner, graceMs: number): Promise<boolean> {
  const clients = await clientsOf(owner);
  const connected = clients.every((client) => client.status === 'ready');
  const closing = owner.close();
  if (connected && (await settleWithin([closing], graceMs))) return true;
  await Promise.all(clients.map((client) => endClient(client, false)));
  return settleWithin([closing], DROPPED_CLOSE_MS);
}

/**
 * Closes the owners, named for the log, one after another, each as closeQueueOwner does with `graceMs`; logs
 * each one given up on (its close did not settle even once its connections were dropped, or it failed) and
 * returns their names.
 */
export async function closeQueueOwners(
  owners: Record<string, QueueOwner | undefined>,
  graceMs: number,
  logger: Pick<StoreLogger, 'warn'>,
): Promise<string[]> {
  const gaveUp: string[] = [];
  for (const [part, owner] of Object.entries(owners)) {
    if (!owner) continue;
    try {
      if (await closeQueueOwner(owner, graceMs)) continue;
      logger.warn({ part }, `gave up closing the ${part}; its connections are dropped`);
    } catch (err) {
      logger.warn({ err, part }, `closing the ${part} failed`);
    }
    gaveUp.push(part);
  }
  return gaveUp;
}

/** The owner's connections; one still connecting for the first time (never used) is left to its close. */
async function clientsOf(owner: QueueOwner): Promise<EndableClient[]> {
  const backend = owner.getBackend();
  const connections = backend.blockingClient ? [backend.client, backend.blockingClient] : [backend.client];
  const clients = connections.map((client) =>
    answerWithin(
      client.catch(() => undefined),
      0,
      undefined,
    ),
  );
  return (await Promise.all(clients)).filter((client) => client !== undefined);
}
