// PostgreSQL fed from the audit stream (AUDIT_DATABASE_URL). Each batch the Redis Stream appends is pending for
// this replica in the stream's `postgres` group from the moment it exists (the append script delivers it); it is
// stored at once (INSERT … ON CONFLICT (stream_id) DO NOTHING) and acknowledged (XACK) only once stored, so an
// event reaches PostgreSQL however long PostgreSQL is away, within the stream's retention:
// - PostgreSQL fails: the failure is reported once (error log), the batch stays pending, and this replica
//   stores its pending entries again, oldest first, RETRY_FIRST_MS later, then doubling to RETRY_MAX_MS, until
//   one pass finds none left. Meanwhile new batches are left pending for that pass rather than each waiting
//   out the timeouts.
// - A replica dies mid-batch: its entries stay pending; every CLAIM_EVERY_MS a live replica claims those
//   pending for CLAIM_IDLE_MS on any consumer (XAUTOCLAIM) and stores them. Storing twice is one row. Then the
//   dead replicas' consumers with nothing left pending are removed from the group (XGROUP DELCONSUMER).
// - Entries trimmed before they were stored (an outage longer than `audit.retention`) are reported and
//   acknowledged.
import type { Clock } from '../clock.js';
import type { AuditStreamGroup } from './stream-group.js';
import type { AuditRow, PostgresAuditLog } from './postgres-log.js';
import type { AuditFeed, StreamEntry } from './types.js';

/** Pending this long (ms) on a consumer, an entry is taken over by another: far above one store's 10 s worst. */
export const CLAIM_IDLE_MS = 60_000;
/** How often (ms) each replica looks for entries to take over. */
export const CLAIM_EVERY_MS = 30_000;
/** The first retry after a failed store (ms); then doubling to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Entries read back, claimed and stored per round trip. */
const BATCH = 100;
/** Claims per look: 1000 entries, the rest at the next look. */
const CLAIM_ROUNDS = 10;

export interface PostgresFeedOptions {
  postgres: Pick<PostgresAuditLog, 'store'>;
  group: Pick<
    AuditStreamGroup,
    'name' | 'consumer' | 'ownPending' | 'claimIdle' | 'ack' | 'removeDead' | 'close'
  >;
  logger: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  clock: Pick<Clock, 'schedule'>;
  /** Default CLAIM_IDLE_MS. */
  claimIdleMs?: number;
}

export class PostgresFeed implements AuditFeed {
  /** True from a failed store until a retry pass finds nothing pending. */
  private failing = false;
  private retryMs = RETRY_FIRST_MS;
  private cancelRetry: (() => void) | undefined;
  private cancelClaim: (() => void) | undefined;
  private closed = false;
  /** Retries and claims in progress (close waits for them). */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly opts: PostgresFeedOptions) {
    this.scheduleClaim();
  }

  get group(): string {
    return this.opts.group.name;
  }

  get consumer(): string {
    return this.opts.group.consumer;
  }

  async take(entries: StreamEntry[]): Promise<void> {
    // While failing, the entries wait pending for the retry pass, which reads them back with the others.
    if (this.failing || this.closed) return;
    try {
      await this.storeAndAck(entries);
    } catch (err) {
      const ids = entries.map((e) => e.streamId);
      this.opts.logger.error(
        { err, ids },
        'audit events not yet in PostgreSQL: kept pending in the Redis stream, stored once PostgreSQL answers',
      );
      this.failed();
    }
  }

  /** Stops retrying and claiming; what is still pending stays for the next start or another replica. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelRetry?.();
    this.cancelClaim?.();
    await Promise.all([...this.running]);
    await this.opts.group.close();
  }

  /** Stores the entries that still have their event, then acknowledges them all (trimmed ones reported). */
  private async storeAndAck(entries: readonly StreamEntry[]): Promise<void> {
    const rows = entries.flatMap((e): AuditRow[] =>
      e.event ? [{ streamId: e.streamId, event: e.event }] : [],
    );
    const lost = entries.filter((e) => !e.event).map((e) => e.streamId);
    if (lost.length > 0) {
      this.opts.logger.error(
        { ids: lost },
        'audit events trimmed from the Redis stream (older than audit.retention) before PostgreSQL stored them',
      );
    }
    await this.opts.postgres.store(rows);
    // Not acknowledged (Redis hiccup): stored already, so a claim later stores them again as no new row.
    await this.opts.group.ack(entries.map((e) => e.streamId)).catch((err: unknown) => {
      this.opts.logger.warn({ err }, 'audit: stored events not acknowledged; claimed again later');
    });
  }

  private failed(): void {
    this.failing = true;
    if (this.closed || this.cancelRetry) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.cancelRetry = this.opts.clock.schedule(() => {
      this.cancelRetry = undefined;
      this.track(this.retry(delay));
    }, delay);
  }

  private async retry(waitedMs: number): Promise<void> {
    try {
      await this.storeOwnPending();
      this.retryMs = RETRY_FIRST_MS;
    } catch (err) {
      this.opts.logger.warn({ err, waitedMs }, 'audit: PostgreSQL still failing; events kept pending');
      this.failed();
    }
  }

  /**
   * Stores this replica's pending entries, oldest first, until none is left. Once none is, `failing` ends and
   * the pending list is read once more: a batch appended while failing, whose take() saw `failing` still set
   * and left it pending, is read there (its entries were pending before that take() ran).
   */
  private async storeOwnPending(): Promise<void> {
    for (let after = '0-0'; ;) {
      const page = await this.opts.group.ownPending(after, BATCH);
      const last = page.at(-1);
      if (last === undefined) {
        if (!this.failing) return;
        this.failing = false;
        after = '0-0';
        continue;
      }
      await this.storeAndAck(page);
      after = last.streamId;
    }
  }

  private scheduleClaim(): void {
    if (this.closed) return;
    this.cancelClaim = this.opts.clock.schedule(() => {
      this.track(this.claim().finally(() => this.scheduleClaim()));
    }, CLAIM_EVERY_MS);
  }

  /**
   * Takes over and stores the entries idle too long on any consumer, then removes the dead replicas' consumers
   * left with nothing pending; left to the retry pass while failing.
   */
  private async claim(): Promise<void> {
    if (this.failing) return;
    const minIdle = this.opts.claimIdleMs ?? CLAIM_IDLE_MS;
    try {
      let cursor = '0-0';
      for (let round = 0; round < CLAIM_ROUNDS; round++) {
        const { next, entries } = await this.opts.group.claimIdle(minIdle, cursor, BATCH);
        if (entries.length > 0) await this.storeAndAck(entries);
        if (next === '0-0') break;
        cursor = next;
      }
    } catch (err) {
      // What was claimed is now this replica's own pending entries: the retry pass stores them.
      this.opts.logger.warn({ err }, 'audit: taking over pending events failed; retrying');
      this.failed();
      return;
    }
    await this.removeDead(minIdle);
  }

  /** A failure is only reported: the next claim look tries again. */
  private async removeDead(minIdleMs: number): Promise<void> {
    try {
      const removed = await this.opts.group.removeDead(minIdleMs);
      if (removed.length > 0) this.opts.logger.info({ removed }, 'audit: consumers of dead replicas removed');
    } catch (err) {
      this.opts.logger.warn({ err }, 'audit: removing dead consumers failed; next look');
    }
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
