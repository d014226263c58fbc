// Question and call ends as the stores announce them: the finish scripts XADD {id, state} to one stream
// (`${prefix}:{q}:ended`, capped at ~100k entries) for every question that ends, whatever its source, and
// {id, state, kind: call} for every API call that ends (call-store.ts).
//
// Contract of EndedEvents (one per replica):
// - subscribe(id): resolves `ended` once question `id` ends after the call, on any replica. Subscribe BEFORE
//   reading the record, then read it: an end between the two is not missed. cancel() frees the waiter (a
//   closure in a Map; a few hundred bytes). listen(id, wake) and unlisten(id, wake) are the same without the
//   promise, for a held request that keeps nothing else (long-poll.ts). One blocking XREAD per replica feeds
//   every waiter; nothing polls.
// - consume(group, handler): every end is handed to exactly one consumer of `group` across all replicas
//   (XREADGROUP), at least once: an entry is acknowledged after `handler` resolves; one whose handler threw,
//   or whose replica died, is claimed again by a live consumer once idle for CLAIM_IDLE_MS; after the claim,
//   the consumers of dead replicas (no lease, idle CLAIM_IDLE_MS) with nothing pending are removed. Handlers must
//   therefore be idempotent (the question id plus the stream entry id identify an end). The group starts at
//   the ends that happen after it is first created; a group Redis lost (a restart without persistence, a
//   failover to an empty node) is created again at the stream's start. Webhooks and the audit trail hang off
//   this.
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock, type Clock, type Schedule } from '../clock.js';
import { endClient, replyCode, type RedisClient, type StoreLogger } from '../redis/index.js';
import { Wakers, type Wake } from '../wakers.js';
import {
  createGroup,
  handledThenAcked,
  recreateLostGroup,
  removeDeadOf,
  toEvent,
  type EndedEvent,
  type Entries,
} from './ended-groups.js';

export type { EndedEvent } from './ended-groups.js';

/** XREAD BLOCK time in ms: how long one read waits before it is issued again. */
export const ENDED_BLOCK_MS = 2_000;
/** A consumer-group entry not acknowledged for this long (ms) is claimed by another consumer. */
export const CLAIM_IDLE_MS = 60_000;
/** Pause after a failed read, ms. */
const RETRY_MS = 250;
/** Entries read per call. */
const BATCH = 100;
/**
 * After a read that found ends (fewer than BATCH), a consumer group waits this long (ms) before it reads again,
 * so that under load one XREADGROUP and one XACK carry many ends (at 200 ends/s about 20) instead of each end its
 * own: at 200 view submissions/s those round trips were ~7 % of the bot's CPU (issue #19 goal 6). An idle stream
 * is still read at once (the blocking read returns with its first end); a group's handlers run this much later.
 */
export const GROUP_GATHER_MS = 100;
/**
 * The same for the subscribers' reader while nobody is subscribed (ms): a subscribe cuts the wait short, and the
 * next read starts where the last one ended, so no end is missed.
 */
export const READER_GATHER_MS = 250;

export interface EndedEventsDeps {
  /** Opens a new blocking connection (one per read loop). */
  connect: (role: string) => Promise<RedisClient>;
  /** The ended stream's key (Keys.ended). */
  key: string;
  /** This replica's name in consumer groups (its holder id). */
  consumer: string;
  /** A replica's lease key by its holder id (Keys.lease): a consumer whose replica has none may be dead. */
  lease: (holder: string) => string;
  /** Claim threshold (ms): entries and consumers idle this long are a dead replica's; default CLAIM_IDLE_MS. */
  claimIdleMs?: number;
  logger: StoreLogger;
  /** Times the waits between reads (GROUP_GATHER_MS, READER_GATHER_MS); default the system clock. */
  clock?: Pick<Clock, 'schedule'>;
}

/**
 * The reader's next id after a read that found nothing. Stream ids come from the master's clock: after a
 * failover to a replica that missed the last writes and whose clock is behind, new ends get ids below the last
 * one read, and a read after it would never see them (a held long-poll or ask_human call woken only at its
 * deadline). When the stream's newest entry is below `lastId`, the stream went back: it is read again from its
 * start (its entries wake only the ids still waited on, and an end that was already seen wakes nobody).
 * Found only while no new end comes above `lastId`: an end written after the clock passed it, within one read
 * of the failover, moves `lastId` on, and the ends written below it before are then left to their waiters'
 * own re-reads (a long-poll is asked again; ask_human re-reads past the deadline). The holder's inbox, which
 * carries the answers themselves, has no such gap (store/inbox.ts reads from its start).
 */
async function readFromWhereStreamIs(redis: RedisClient, key: string, lastId: string): Promise<string> {
  const [newest] = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
  return streamIdBefore(newest?.[0] ?? '0-0', lastId) ? '0-0' : lastId;
}

/** Whether stream id `a` ("<ms>-<seq>") comes before `b`. */
export function streamIdBefore(a: string, b: string): boolean {
  const [am = 0n, as = 0n] = a.split('-').map(BigInt);
  const [bm = 0n, bs = 0n] = b.split('-').map(BigInt);
  return am < bm || (am === bm && as < bs);
}

export class EndedEvents {
  private readonly waiters = new Wakers();
  private readonly loops: { stop(): Promise<void> }[] = [];
  /** Ends the reader's wait between reads (a subscriber came); a no-op while it is not waiting. */
  private wakeReader: () => void = () => undefined;

  constructor(private readonly deps: EndedEventsDeps) {}

  /** Starts the one reader that wakes subscribers, reading from the stream's current end. */
  async start(): Promise<void> {
    const redis = await this.deps.connect('ended');
    const last = await redis.xrevrange(this.deps.key, '+', '-', 'COUNT', 1);
    let lastId = last[0]?.[0] ?? '0-0';
    this.loops.push(
      this.loop(redis, 'ended reader', async (signal) => {
        const reply = await redis.xread(
          'COUNT',
          BATCH,
          'BLOCK',
          ENDED_BLOCK_MS,
          'STREAMS',
          this.deps.key,
          lastId,
        );
        let read = 0;
        for (const [, entries] of reply ?? []) {
          read += entries.length;
          for (const entry of entries) {
            lastId = entry[0];
            this.waiters.wake(toEvent(entry).id);
          }
        }
        if (read === 0) lastId = await readFromWhereStreamIs(redis, this.deps.key, lastId);
        if (!gathers(read) || this.waiters.size > 0) return;
        const wait = pause(this.schedule, READER_GATHER_MS, signal);
        this.wakeReader = wait.cut;
        await wait.done;
        this.wakeReader = () => undefined;
      }),
    );
  }

  /** Waits for question `id` to end (see the contract above). */
  subscribe(id: string): { ended: Promise<void>; cancel(): void } {
    const waiting = this.waiters.wait(id);
    this.wakeReader();
    return { ended: waiting.done, cancel: () => waiting.cancel() };
  }

  /** subscribe() without its promise: calls `wake` once question `id` ends, unless unlisten() comes first. */
  listen(id: string, wake: Wake): void {
    this.waiters.add(id, wake);
    this.wakeReader();
  }

  unlisten(id: string, wake: Wake): void {
    this.waiters.remove(id, wake);
  }

  /** How many requests are waiting (for tests and metrics). */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Hands every end to exactly one consumer of `group` (see the contract above); stop() ends the loop. */
  async consume(group: string, handler: (event: EndedEvent) => Promise<void>): Promise<void> {
    const redis = await this.deps.connect(`ended-${group}`);
    const { key, logger } = this.deps;
    await createGroup(redis, key, group);
    const handle = handledThenAcked(redis, key, group, handler);
    let claimedAt = 0;
    this.loops.push(
      this.loop(redis, `ended group ${group}`, async (signal) => {
        const claim = Date.now() - claimedAt > this.claimIdleMs / 2;
        if (claim) claimedAt = Date.now();
        try {
          await this.readGroup(redis, group, handle, signal, claim);
        } catch (err) {
          if (replyCode(err) !== 'NOGROUP') throw err;
          await recreateLostGroup(redis, key, group, logger);
        }
      }),
    );
  }

  /** One turn of a group's loop: entries idle too long claimed (when `claim`), then one read and its wait. */
  private async readGroup(
    redis: RedisClient,
    group: string,
    handle: (entries: Entries) => Promise<void>,
    signal: AbortSignal,
    claim: boolean,
  ): Promise<void> {
    const { key, consumer, lease, logger } = this.deps;
    if (claim) {
      const minIdleMs = this.claimIdleMs;
      const claimed = await redis.xautoclaim(key, group, consumer, minIdleMs, '0-0', 'COUNT', BATCH);
      await handle((claimed as [string, Entries])[1]);
      await removeDeadOf(redis, { key, group, self: consumer, minIdleMs, lease }, logger, signal);
    }
    const reply = await redis.xreadgroup(
      'GROUP',
      group,
      consumer,
      'COUNT',
      BATCH,
      'BLOCK',
      ENDED_BLOCK_MS,
      'STREAMS',
      key,
      '>',
    );
    let read = 0;
    for (const [, entries] of (reply ?? []) as [string, Entries][]) {
      read += entries.length;
      await handle(entries);
    }
    if (gathers(read)) await pause(this.schedule, GROUP_GATHER_MS, signal).done;
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    this.waiters.wakeAll();
  }

  private get claimIdleMs(): number {
    return this.deps.claimIdleMs ?? CLAIM_IDLE_MS;
  }

  private get schedule(): Schedule {
    return (this.deps.clock ?? systemClock).schedule;
  }

  private loop(
    redis: RedisClient,
    name: string,
    once: (signal: AbortSignal) => Promise<void>,
  ): { stop(): Promise<void> } {
    const abort = new AbortController();
    const run = async (): Promise<void> => {
      while (!abort.signal.aborted) {
        try {
          await once(abort.signal);
        } catch (err) {
          if (abort.signal.aborted) return;
          this.deps.logger.warn({ err, loop: name }, 'ended stream read failed; retrying');
          await sleep(RETRY_MS, undefined, { signal: abort.signal }).catch(() => undefined);
        }
      }
    };
    const running = run();
    return {
      stop: async () => {
        abort.abort();
        // Dropping the socket rejects a blocked read at once instead of waiting out ENDED_BLOCK_MS.
        await Promise.all([endClient(redis, false), running]);
      },
    };
  }
}

/** A read that found ends, but not a full batch (a full one is followed by the next read at once). */
function gathers(read: number): boolean {
  return read > 0 && read < BATCH;
}

/** Waits `ms` on `schedule`, or less: until `signal` aborts or `cut` is called. */
function pause(
  schedule: Schedule,
  ms: number,
  signal: AbortSignal,
): { done: Promise<void>; cut: () => void } {
  let cut: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    let settled = false;
    const settle = (early: boolean): void => {
      if (settled) return;
      settled = true;
      if (early) cancel();
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = (): void => settle(true);
    const cancel = schedule(() => settle(false), ms);
    cut = onAbort;
    if (signal.aborted) settle(true);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { done, cut };
}
