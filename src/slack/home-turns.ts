// The App Home's background refreshes (a question started or ended) take views.publish slots one at a time per
// workspace on each replica. The slots are one FIFO shared by every replica (outbox pacing, Tier 4: ~100 a
// minute), so a burst that reserved a slot per refresh at once (a question to a group of hundreds) put a Home
// that a person opens minutes behind it. Taken in turn, a burst holds at most one reserved slot per replica, and
// an opened Home (or a click's refresh), which reserves its slot directly, waits for at most those.
import { WaitStoppedError } from './stoppable-waits.js';

/** Gives the turn back (a no-op for a place left before its turn came). */
export type Release = () => void;

interface Waiting {
  go: (release: Release) => void;
  stop: (error: Error) => void;
}

const noop: Release = () => undefined;

export class BackgroundTurns {
  /** Per line (a workspace) with a turn held: the places waiting behind it, first to go first. */
  private readonly lines = new Map<string, Waiting[]>();
  private stopped = false;

  /**
   * A place in `line`: `turn` resolves with its release once it is this place's turn, or at once with a no-op
   * release after `leave()` (no longer background: it goes without a turn); rejects with a WaitStoppedError
   * when stop() ends its wait. After stop() every place goes at once: the slot's own wait, stopped too, then
   * decides (a slot free now is still used).
   */
  take(line: string): { turn: Promise<Release>; leave: () => void } {
    if (this.stopped) return { turn: Promise.resolve(noop), leave: noop };
    const waiting = this.lines.get(line);
    if (waiting === undefined) {
      this.lines.set(line, []);
      return { turn: Promise.resolve(this.releaseOf(line)), leave: noop };
    }
    let place: Waiting | undefined;
    const turn = new Promise<Release>((resolve, reject) => {
      place = { go: resolve, stop: reject };
      waiting.push(place);
    });
    const leave = (): void => {
      const at = place ? waiting.indexOf(place) : -1;
      if (at < 0) return;
      waiting.splice(at, 1);
      place?.go(noop);
    };
    return { turn, leave };
  }

  /** Ends every wait for a turn (a WaitStoppedError) and refuses new ones. */
  stop(): void {
    this.stopped = true;
    const waiting = [...this.lines.values()].flat();
    this.lines.clear();
    for (const place of waiting) place.stop(new WaitStoppedError('stopping: turn not waited for'));
  }

  /** Passes `line`'s turn to its next place, once. */
  private releaseOf(line: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const waiting = this.lines.get(line);
      const next = waiting?.shift();
      if (next) next.go(this.releaseOf(line));
      else if (waiting) this.lines.delete(line);
    };
  }
}
