// Start and stop as one shape: each long-lived part, once started, pushes how to stop it; stop() runs those in
// reverse, so stopping is the reverse of starting by construction. (Node 20 has no AsyncDisposableStack.)
// A stop is bounded: a part that waits on something that does not answer (a hung Redis: its commands wait until
// the socket is dropped, and a dropped connection's handshake can wait again) is given up on once the stop's
// time is spent, so the process exits before an orchestrator kills it mid-way.
import { systemClock, type Clock } from './clock.js';
import { answerWithin } from './settle.js';

/**
 * Longest stop() waits for its parts, in ms: with PART_AFTER_BUDGET_MS for each part left then, a stop ends
 * within Kubernetes' default 30 s between SIGTERM and SIGKILL.
 */
export const STOP_WITHIN_MS = 20_000;
/** How long each part still gets once the stop's time is spent, in ms: enough to drop its connections. */
export const PART_AFTER_BUDGET_MS = 500;

export interface LifecycleOptions {
  clock?: Pick<Clock, 'now' | 'schedule'>;
  /** Told of each part stop() stopped waiting for (it may still finish in the background). */
  logger?: { warn(obj: object, msg: string): void };
  /** Default STOP_WITHIN_MS. */
  stopWithinMs?: number;
}

/** Why stopping failed. */
export type LifecycleErrorCode = 'stop_failed';

/** One or more parts failed to stop; every other part was still stopped. `cause` is an AggregateError of them. */
export class LifecycleError extends Error {
  override name = 'LifecycleError';
  readonly code: LifecycleErrorCode = 'stop_failed';
  constructor(
    /** The parts that failed to stop, in the order they were stopped. */
    readonly parts: string[],
    options: { cause: AggregateError },
  ) {
    super(`could not stop: ${parts.join(', ')}`, options);
  }
}

interface Step {
  part: string;
  stop: () => Promise<void> | void;
}

export class Lifecycle {
  private readonly steps: Step[] = [];
  /** The last stop() called, settled once it ended however it ended; the next one begins then. */
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: LifecycleOptions = {}) {}

  /** Records how to stop `part`, which has just started (or is about to take work). */
  push(part: string, stop: () => Promise<void> | void): void {
    this.steps.push({ part, stop });
  }

  /**
   * Stops every part pushed so far, the last pushed first, each after the previous one settled, or given up
   * on once the stop's time (STOP_WITHIN_MS) is spent (then each part left gets PART_AFTER_BUDGET_MS). A part
   * that fails does not keep the others from stopping; the failures are thrown together at the end. A second
   * call stops only what was pushed since the first, once the first settled: a second signal (Ctrl-C, then
   * SIGTERM) made during a stop otherwise took the next part out of order and resolved at once, so the
   * process exited while the first stop still waited on a part.
   */
  stop(): Promise<void> {
    const before = this.stopping;
    // With none under way the stop begins at once (a manual clock's timers are set when stop() returns).
    const next = before === undefined ? this.stopPushed() : before.then(() => this.stopPushed());
    const settled = next.catch(() => undefined);
    this.stopping = settled;
    void settled.then(() => {
      if (this.stopping === settled) this.stopping = undefined;
    });
    return next;
  }

  private async stopPushed(): Promise<void> {
    const { clock = systemClock, stopWithinMs = STOP_WITHIN_MS } = this.options;
    const until = clock.now() + stopWithinMs;
    const failed: string[] = [];
    const errors: unknown[] = [];
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      const waitMs = Math.max(until - clock.now(), PART_AFTER_BUDGET_MS);
      try {
        if (!(await this.stopWithin(step, waitMs))) {
          this.options.logger?.warn(
            { part: step.part, waitedMs: waitMs },
            `gave up waiting for ${step.part} to stop`,
          );
        }
      } catch (error) {
        failed.push(step.part);
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      throw new LifecycleError(failed, { cause: new AggregateError(errors, 'stopping failed') });
    }
  }

  /** True once `step` stopped, false when `ms` passed first; rejects when it failed in time. */
  private stopWithin(step: Step, ms: number): Promise<boolean> {
    const stopped = Promise.resolve()
      .then(step.stop)
      .then(() => true);
    // A part given up on may still fail later: the race in answerWithin handles that rejection too.
    return answerWithin(stopped, ms, false, this.options.clock ?? systemClock);
  }
}
