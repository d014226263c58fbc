// Waits that one stop() cuts short, all at once, without an 'abort' listener per wait on a shared AbortSignal:
// Node warns at the 11th listener on one signal (MaxListenersExceededWarning), which the App Home passed when
// more than ten people's refreshes waited for their views.publish slots at once (timers/promises' delay adds a
// listener for each wait and removes it when the wait ends, so it was bounded, but by the people refreshed).
import { systemClock, type Clock } from '../clock.js';

/** Why a wait ended early. */
export type WaitStoppedCode = 'stopped';

/** A wait cut short by stop(), or asked for after it. */
export class WaitStoppedError extends Error {
  override name = 'WaitStoppedError';
  readonly code: WaitStoppedCode = 'stopped';
}

export class StoppableWaits {
  /** Ends each wait in progress early. */
  private readonly cuts = new Set<() => void>();
  private stopped = false;

  /** `clock` times the waits; default the system clock. */
  constructor(private readonly clock: Pick<Clock, 'schedule'> = systemClock) {}

  /** Resolves after `ms`; rejects with a WaitStoppedError once stop() was called. */
  wait(ms: number): Promise<void> {
    if (this.stopped) return Promise.reject(new WaitStoppedError('stopping: not waiting'));
    return new Promise((resolve, reject) => {
      const cut = (): void => {
        cancel();
        this.cuts.delete(cut);
        reject(new WaitStoppedError('stopping: wait cut short'));
      };
      const cancel = this.clock.schedule(() => {
        this.cuts.delete(cut);
        resolve();
      }, ms);
      this.cuts.add(cut);
    });
  }

  /** Cuts every wait in progress short and refuses new ones. */
  stop(): void {
    this.stopped = true;
    for (const cut of [...this.cuts]) cut();
  }
}
