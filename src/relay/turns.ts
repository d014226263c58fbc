// Fair turns at asking: a replica starts questions (stores them, queues their cards) a few at a time. A
// person's first FIRST_TURNS questions go before anyone's later ones, and later ones take turns person by
// person, so one person's burst of questions never holds another person's first question behind it. Only the
// start is gated: once its card is queued (durable in the outbox) the turn is over, and the wait for the
// answer holds nothing.
//
// Why: a DM's cards go out one per second after a burst of two (Slack's per-channel limit), so a person's
// third and later questions are not needed for seconds, while another person's first card is needed now. At 50
// people asking 10 questions each at once, first come first served started the last person's first question
// after the 490 others and their last card came that much later (issue #19 goal 7a).
import type { Schedule } from '../clock.js';

/**
 * Questions of one person that go before everyone's later ones: as many as Slack lets a DM's cards go at once
 * (blocks/slack-rate-limits.ts POST_PER_CHANNEL.burst); the rest of a DM's cards wait a second each anyway.
 */
export const FIRST_TURNS = 2;

/**
 * Default questions a replica starts at once (stores them and queues their cards). A start is a few Redis round
 * trips, so a few at once keep the store's connection busy while the turns still decide the order. With 8, 50
 * people asking 10 questions each at once got their last card 9.8 s after the commands against 10.3 s first
 * come first served (5 alternating runs each); 4 and 16 did no better in single runs (run-to-run spread ±0.3 s).
 */
export const DEFAULT_STARTS_AT_ONCE = 8;

/**
 * Longest a turn holds its place, in ms: a start slower than this (a card post waiting for Redis to come back,
 * which it may do until the question's deadline) gives its place up, so no outage holds every new question.
 */
export const TURN_HOLD_MS = 2_000;

/** Ends a turn; calling it again does nothing. */
export type EndTurn = () => void;

/** A person with questions started or waiting to start. */
interface Person {
  /** Their questions started since they last had none running nor waiting. */
  started: number;
  running: number;
  /** Turns waiting, in the order asked. */
  waiting: (() => void)[];
}

export class Turns {
  private running = 0;
  private readonly people = new Map<string, Person>();
  /**
   * Waiting people by their rank (questions started, at most FIRST_TURNS), each Set in the order they lined
   * up: the last rank is the rotation of everyone past their first questions.
   */
  private readonly byRank = Array.from({ length: FIRST_TURNS + 1 }, () => new Set<string>());
  private lined = 0;

  /** `concurrency`: questions started at once (a whole number ≥ 1); `schedule` times TURN_HOLD_MS. */
  constructor(
    private readonly concurrency: number,
    private readonly schedule: Schedule,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`Turns concurrency must be a whole number ≥ 1, got ${concurrency}`);
  }

  /** Resolves when `who` may start a question; the caller ends the turn once its start is done. */
  take(who: string): Promise<EndTurn> {
    const person = this.people.get(who) ?? { started: 0, running: 0, waiting: [] };
    this.people.set(who, person);
    if (this.running < this.concurrency && this.lined === 0) return Promise.resolve(this.begin(who, person));
    return new Promise((resolve) => {
      if (person.waiting.length === 0) this.line(who, person.started);
      person.waiting.push(() => resolve(this.begin(who, person)));
    });
  }

  private begin(who: string, person: Person): EndTurn {
    this.running++;
    person.running++;
    person.started++;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      cancelHold();
      this.running--;
      person.running--;
      if (person.running === 0 && person.waiting.length === 0) this.people.delete(who);
      this.next();
    };
    const cancelHold = this.schedule(end, TURN_HOLD_MS);
    return end;
  }

  /** Starts the oldest waiting turn of the first person of the lowest rank; they line up again if more wait. */
  private next(): void {
    const who = this.takeFirst();
    const person = who === undefined ? undefined : this.people.get(who);
    if (who === undefined || person === undefined) return;
    const start = person.waiting.shift();
    if (person.waiting.length > 0) this.line(who, person.started + 1);
    start?.();
  }

  private line(who: string, started: number): void {
    this.byRank[Math.min(started, FIRST_TURNS)]?.add(who);
    this.lined++;
  }

  private takeFirst(): string | undefined {
    for (const rank of this.byRank) {
      const first = rank.values().next();
      if (first.done === true) continue;
      rank.delete(first.value);
      this.lined--;
      return first.value;
    }
    return undefined;
  }
}
