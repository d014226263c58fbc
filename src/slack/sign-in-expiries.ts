// The sweep that turns a Connect message whose link expired into "expired" (SlackSignIn.expire), on every
// replica: the messages are found in Redis by their link's expiry and each is taken by one replica, so one that
// any replica posted is marked even when that replica is gone, and none is marked twice. A sweep rather than a
// click on the dead link: the message says it before the person clicks, and the start page of a dead link no
// longer knows whose it was.
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { SlackSignIn } from './sign-in.js';
import { StreakLines } from '../streak-lines.js';

/**
 * Time between sweeps, ms (15 s): a message reads "expired" at most this long after its link died (a click in
 * between gets the start page's "expired"), for one sorted-set read per replica.
 */
export const EXPIRY_SWEEP_MS = 15_000;
/** Messages taken per read; a sweep reads again while it takes this many. */
export const EXPIRED_PER_READ = 100;

export interface SignInExpiriesDeps {
  signIn: Pick<SlackSignIn, 'expire'>;
  clock: Pick<Clock, 'schedule' | 'now'>;
  logger: Pick<Logger, 'warn' | 'info'>;
}

export class SignInExpiries {
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Sweeps failing one after another (Redis down): a line at the first, then at most every 5 min. */
  private readonly failures: StreakLines;

  constructor(private readonly deps: SignInExpiriesDeps) {
    this.failures = new StreakLines(deps.clock);
  }

  /** Sweeps every EXPIRY_SWEEP_MS from now on, until stop(). */
  start(): void {
    this.arm();
  }

  /** No sweep after this; resolves once the one under way finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  private arm(): void {
    if (this.stopped) return;
    this.cancel = this.deps.clock.schedule(() => {
      this.running = this.sweep().finally(() => this.arm());
    }, EXPIRY_SWEEP_MS);
  }

  /** Marks every message due, a read at a time; a failure is logged sparingly and the next sweep tries again. */
  private async sweep(): Promise<void> {
    const { signIn, logger } = this.deps;
    try {
      for (let taken = EXPIRED_PER_READ; taken >= EXPIRED_PER_READ && !this.stopped;) {
        const swept = await signIn.expire(EXPIRED_PER_READ);
        for (const err of swept.failed) logger.warn({ err }, 'could not mark a Connect message expired');
        taken = swept.taken;
      }
    } catch (err) {
      const line = this.failures.occurred();
      if (line)
        logger.warn({ err, failedSweeps: line.count }, 'the sweep of expired Connect messages failed');
      return;
    }
    const end = this.failures.ended();
    if (end) logger.info({ failedSweeps: end.count }, 'the sweep of expired Connect messages works again');
  }
}
