// A store's replica lease and orphan sweeper (store/lease.ts), kept together for QuestionStore: the lease it
// renews, the periodic sweep it may run, and the release and stop that close() needs.
import type { EndReason, FinishResult, Outcome, Question } from '../relay/types.js';
import { commandError } from '../redis/index.js';
import { Lease, OrphanSweeper, type LeaseOptions, type LivenessDeps, type SweepOptions } from './lease.js';

type End = (id: string, outcome: Outcome, reason: EndReason) => Promise<FinishResult>;

export class Liveness {
  private lease: Lease | undefined;
  private sweeper: OrphanSweeper | undefined;
  private dataLost: (() => void) | undefined;

  constructor(private readonly deps: LivenessDeps) {}

  async startLease(opts?: LeaseOptions): Promise<void> {
    this.lease?.stop();
    const lease = new Lease(this.deps, opts, () => this.dataLost?.());
    try {
      await lease.start();
    } catch (err) {
      throw commandError('startLease', err);
    }
    this.lease = lease;
  }

  /** `listener` hears each renewal that finds Redis lost its data (lease.ts). */
  onDataLost(listener: () => void): void {
    this.dataLost = listener;
  }

  stopLease(): void {
    this.lease?.stop();
  }

  startSweep(end: End, opts?: SweepOptions): void {
    this.sweeper ??= new OrphanSweeper(this.deps, end);
    this.sweeper.start(opts);
  }

  async sweepOnce(end: End, onOrphaned: (question: Question) => Promise<void>): Promise<Question[]> {
    try {
      return await new OrphanSweeper(this.deps, end).sweep(onOrphaned);
    } catch (err) {
      throw commandError('sweepOrphans', err);
    }
  }

  async stopSweep(): Promise<void> {
    await this.sweeper?.stop();
  }

  async release(): Promise<void> {
    await this.lease
      ?.release()
      .catch((err: unknown) =>
        this.deps.logger.warn({ err }, 'releasing the lease; it will lapse on its own'),
      );
  }
}
