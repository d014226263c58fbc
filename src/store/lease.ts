// Replica liveness. Each replica keeps `lease:<holder>` alive with SET PX. A holder joins the `holders` set
// only by taking a lease (LEASE_LUA), so a replica that has not started its lease yet, or never does, is never
// taken for dead: call startLease() before the first create. Every replica's sweeper walks the registered
// holders; one whose lease has lapsed is dead, and its pending questions end as cancel / holder_lost through
// the ordinary finish transition, so with several sweepers each question still ends exactly once.
// Bound: a dead holder's questions end within ttlMs + everyMs (plus one sweep pass) of its last renewal.
// A holder cut off from Redis for longer than ttlMs is treated as dead too; when it comes back its inbox
// receives those cancels like any other outcome.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';
import type { EndReason, FinishResult, Outcome, Question } from '../relay/types.js';
import type { StoreLogger } from '../redis/index.js';
import type { Keys } from '../redis/index.js';
import type { StoreScripts } from './scripts.js';

/** Default lease lifetime in ms: how long a replica may go silent before it is considered dead. */
export const LEASE_TTL_MS = 15_000;
/** Default interval between lease renewals, in ms (a third of the TTL tolerates two failed renewals). */
export const LEASE_RENEW_EVERY_MS = 5_000;
/** Default interval between orphan sweeps, in ms. */
export const SWEEP_EVERY_MS = 5_000;
/** Questions of one dead holder ended per sweep pass; the rest wait for the next pass. */
const SWEEP_BATCH = 500;

export interface LeaseOptions {
  /** Lease lifetime in ms. Default LEASE_TTL_MS (15000). */
  ttlMs?: number;
  /** Renewal interval in ms; keep it well under ttlMs. Default LEASE_RENEW_EVERY_MS (5000). */
  renewEveryMs?: number;
}

export interface SweepOptions {
  /** Interval between sweeps in ms. Default SWEEP_EVERY_MS (5000). */
  everyMs?: number;
}

/** The periods that follow from a replica lease (ELICIT_RELAY_REPLICA_LEASE), for every part that judges one. */
export interface ReplicaTimings {
  /** The lease's lifetime and its renewal, every third of it (5 s of the default 15 s). */
  lease: Required<LeaseOptions>;
  /**
   * Between sweeps for lapsed leases (orphaned questions, durable rounds, API calls), in ms: a third of the
   * lease, at most SWEEP_EVERY_MS, so a dead replica's work moves within the lease plus one such period.
   */
  sweepEveryMs: number;
}

/** The timings of a lease of `ttlMs`; the default one's are today's constants (15 s, renewed and swept every 5 s). */
export function replicaTimings(ttlMs: number = LEASE_TTL_MS): ReplicaTimings {
  const third = Math.round(ttlMs / 3);
  return { lease: { ttlMs, renewEveryMs: third }, sweepEveryMs: Math.min(third, SWEEP_EVERY_MS) };
}

export interface LivenessDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  holderId: string;
  logger: StoreLogger;
}

export class Lease {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** The renewal in progress, so release() cannot be overtaken by a late SET. */
  private renewing: Promise<void> | undefined;
  /** Renewal failures are logged once per streak, not every renewEveryMs during an outage. */
  private failing = false;
  /** The deployment's epoch as last seen; a different one means Redis lost its data meanwhile. */
  private epoch: string | undefined;
  private readonly ttlMs: number;
  private readonly renewEveryMs: number;

  /** `onDataLost`: called when a renewal finds Redis lost its data (a new epoch). */
  constructor(
    private readonly deps: LivenessDeps,
    opts: LeaseOptions = {},
    private readonly onDataLost: () => void = () => undefined,
  ) {
    this.ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
    this.renewEveryMs = opts.renewEveryMs ?? LEASE_RENEW_EVERY_MS;
  }

  /** Takes the lease (rejects if Redis does not answer) and keeps renewing it until stop(). */
  async start(): Promise<void> {
    await this.renew();
    this.running = true;
    this.schedule();
  }

  /** Stops renewing and leaves the key to lapse, exactly as a crashed replica would. */
  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** Stops renewing and deletes the lease, so sweepers end anything this replica left pending at once. */
  async release(): Promise<void> {
    this.stop();
    await this.renewing;
    await this.deps.cmd.del(this.deps.keys.lease(this.deps.holderId));
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.renewing = this.renewAndReschedule();
    }, this.renewEveryMs);
  }

  private async renewAndReschedule(): Promise<void> {
    try {
      const had = await this.renew();
      this.failing = false;
      if (!had) {
        this.deps.logger.warn(
          { holder: this.deps.holderId },
          'lease had lapsed; questions of this replica may have ended as holder_lost',
        );
      }
    } catch (err) {
      if (!this.failing)
        this.deps.logger.warn({ err, holder: this.deps.holderId }, 'lease renewal failed; retrying');
      this.failing = true;
    }
    if (this.running) this.schedule();
  }

  private async renew(): Promise<boolean> {
    const { cmd, keys: k, holderId, logger } = this.deps;
    const fresh = randomBytes(8).toString('hex');
    const args = [k.lease(holderId), k.holders, k.epoch, this.ttlMs, holderId, fresh];
    const [had, epoch] = (await cmd.holderLease(...args)) as [number, string];
    if (this.epoch !== undefined && epoch !== this.epoch) {
      logger.warn(
        { holder: holderId, epochWas: this.epoch, epochNow: epoch },
        'Redis lost its data (its epoch key was gone): pending questions and their timers may be lost; ' +
          'the calls waiting here on questions that are gone are told cancel',
      );
      this.onDataLost();
    }
    this.epoch = epoch;
    return had === 1;
  }
}

type Finish = (id: string, outcome: Outcome, reason: EndReason) => Promise<FinishResult>;
type OnOrphaned = (question: Question) => Promise<void>;

export class OrphanSweeper {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;

  constructor(
    private readonly deps: LivenessDeps,
    private readonly finish: Finish,
  ) {}

  /** Sweeps now and then every `everyMs`, never two passes at once. */
  start(opts: SweepOptions = {}): void {
    if (this.running) return;
    this.running = true;
    const loop = async (): Promise<void> => {
      this.pass = this.sweep().catch((err: unknown) => {
        this.deps.logger.warn({ err }, 'orphan sweep failed; retrying on the next pass');
      });
      await this.pass;
      if (this.running) this.timer = setTimeout(() => void loop(), opts.everyMs ?? SWEEP_EVERY_MS);
    };
    void loop();
  }

  /** Stops the loop and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass;
  }

  /** One pass over every registered holder; returns the questions this replica ended (and reported). */
  async sweep(onOrphaned?: OnOrphaned): Promise<Question[]> {
    const { cmd, keys: k, holderId } = this.deps;
    const ended: Question[] = [];
    for (const holder of await cmd.smembers(k.holders)) {
      // This replica is running, so it is alive whatever its lease says.
      if (holder === holderId || (await cmd.exists(k.lease(holder))) === 1) continue;
      ended.push(...(await this.endHeld(holder, onOrphaned)));
      await cmd.holderForget(k.lease(holder), k.held(holder), k.holders, holder);
    }
    return ended;
  }

  private async endHeld(holder: string, onOrphaned?: OnOrphaned): Promise<Question[]> {
    const { cmd, keys: k, logger } = this.deps;
    const ended: Question[] = [];
    for (const id of await cmd.zrange(k.held(holder), '0', String(SWEEP_BATCH - 1))) {
      const result = await this.finish(id, { action: 'cancel' }, 'holder_lost');
      if (!result.won) {
        // Already ended (or expired) without leaving the index: nothing to do but forget the entry.
        await cmd.zrem(k.held(holder), id);
        continue;
      }
      ended.push(result.question);
      await onOrphaned?.(result.question).catch((err: unknown) => {
        logger.warn({ err, id, holder }, 'onOrphaned failed; the question has ended anyway');
      });
    }
    return ended;
  }
}
