// Start and stop as one shape: each long-lived part, once started, pushes how to stop it; stop() runs those in
// reverse, so stopping is the reverse of starting by construction. (Node 20 has no AsyncDisposableStack.)

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

  /** Records how to stop `part`, which has just started (or is about to take work). */
  push(part: string, stop: () => Promise<void> | void): void {
    this.steps.push({ part, stop });
  }

  /**
   * Stops every part pushed so far, the last pushed first, each after the previous one settled. A part that
   * fails does not keep the others from stopping; the failures are thrown together at the end. A second
   * call stops only what was pushed since the first.
   */
  async stop(): Promise<void> {
    const failed: string[] = [];
    const errors: unknown[] = [];
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.stop();
      } catch (error) {
        failed.push(step.part);
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      throw new LifecycleError(failed, { cause: new AggregateError(errors, 'stopping failed') });
    }
  }
}
