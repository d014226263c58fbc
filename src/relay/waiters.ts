// The questions this replica asked and whose calls wait on it, each with the one function that hands its
// outcome to the asking call; and the stop logic: a replica that is leaving ends the questions it waits on,
// but leaves a durable 2026 round's questions pending for a survivor (src/rounds).
import type { RelayLogger, RelayStore } from './ports.js';
import type { Outcome } from './types.js';

type Waiter = (outcome: Outcome) => void;

export class Waiters {
  private readonly waiters = new Map<string, Waiter>();
  /** The waiting questions that answer a durable 2026 round's requests (Question.round). */
  private readonly roundWaiters = new Set<string>();
  /** Set by leave: this replica is stopping and leaves its round questions to a survivor. */
  private leaving = false;

  /** Questions whose calls are still waiting for their outcome. */
  get size(): number {
    return this.waiters.size;
  }

  /** The questions whose calls are waiting. */
  ids(): string[] {
    return [...this.waiters.keys()];
  }

  /** Waits on question `id` (`round`: it answers a durable round); resolves with the outcome handed to it. */
  wait(id: string, round: boolean): Promise<Outcome> {
    const answered = new Promise<Outcome>((resolve) => this.waiters.set(id, resolve));
    if (round) this.roundWaiters.add(id);
    return answered;
  }

  /** Hands `outcome` to the call waiting on `id`, when one is. */
  resolve(id: string, outcome: Outcome): void {
    this.waiters.get(id)?.(outcome);
  }

  /** The call waiting on `id` has its outcome (or gave up): nothing waits on it any more. */
  forget(id: string): void {
    this.waiters.delete(id);
    this.roundWaiters.delete(id);
  }

  /**
   * A durable round's question while this replica stops: it stays pending and its call here waits on, never
   * answered, so nothing of the round moves here (no cancel recorded, no retry, the round not dropped); any
   * replica records its answer and, this replica's lease gone, resumes the call (src/rounds).
   */
  leftToSurvivor(id: string): boolean {
    return this.leaving && this.roundWaiters.has(id);
  }

  /** This replica stops: the ids of the questions to end now (all it waits on but those left to a survivor). */
  leave(): string[] {
    this.leaving = true;
    return [...this.waiters.keys()].filter((id) => !this.leftToSurvivor(id));
  }
}

/**
 * Tells cancel to each waiting call whose question's record is gone (Redis lost its data). A record that cannot
 * be read now is left to the question's backstop.
 */
export async function endLostQuestions(
  waiters: Waiters,
  store: Pick<RelayStore, 'get'>,
  logger: RelayLogger,
): Promise<void> {
  const gone = async (id: string): Promise<boolean> => (await store.get(id).catch(() => null)) === undefined;
  const ids = waiters.ids();
  const lost = (await Promise.all(ids.map(async (id) => ((await gone(id)) ? [id] : [])))).flat();
  for (const id of lost) waiters.resolve(id, { action: 'cancel' });
  if (lost.length > 0)
    logger.warn({ questions: lost.length }, 'questions lost with Redis data ended as cancel');
}
