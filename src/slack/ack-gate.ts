// "Acks first": the work a Slack request starts after its ack (a run's claim, its "Running…" note, the MCP
// session start and tool call) shares the one event loop with reading and acking the requests that came after
// it. Under a burst (50 people's `/mcp run` at once, 100 commands a second) that work, started at once, made the
// later requests wait for their acks behind it (issue #19 goals 6b and 7b). So post-ack work waits here while
// some Slack request is read but not yet answered, and is let go one piece per event-loop turn once none is:
// between two pieces the loop polls its sockets, so a request that arrived meanwhile holds the rest again.
// Never starved: a piece waits at most `maxWaitMs` (ACK_GATE_MAX_WAIT_MS), whatever keeps coming.
import type { Clock } from '../clock.js';

/** Longest a piece of post-ack work waits for Slack's requests to be answered, in ms. */
export const ACK_GATE_MAX_WAIT_MS = 50;

/** Counts Slack's requests from arrival to answer: `arrived()` returns the call that says it was answered. */
export interface SlackRequestsInFlight {
  arrived(): () => void;
}

/** Where post-ack work waits its turn. */
export interface PostAckWork {
  /** Resolves once no Slack request waits for its ack (one waiter per turn), or after the bound at the latest. */
  turn(): Promise<void>;
  /**
   * At once when no Slack request waits for its ack and no work waits its turn, else as turn(): for the steps
   * of work already under way (an MCP session's HTTP exchanges), which a turn of their own each would slow
   * down (at least a 1 ms timer) when nothing is waiting.
   */
  afterAcks(): Promise<void>;
}

interface Waiter {
  release: () => void;
  cancelBound: () => void;
}

export class AckGate implements SlackRequestsInFlight, PostAckWork {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  /** A release is scheduled for the next turn (at most one at a time). */
  private releasing = false;

  constructor(
    private readonly clock: Pick<Clock, 'schedule'>,
    private readonly maxWaitMs = ACK_GATE_MAX_WAIT_MS,
  ) {}

  /** Requests read but not yet answered. */
  get unanswered(): number {
    return this.inFlight;
  }

  /** Post-ack work waiting its turn. */
  get queued(): number {
    return this.waiting.length;
  }

  arrived(): () => void {
    this.inFlight += 1;
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      this.inFlight -= 1;
      this.scheduleRelease();
    };
  }

  turn(): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        release: () => {
          waiter.cancelBound();
          resolve();
        },
        cancelBound: () => undefined,
      };
      waiter.cancelBound = this.clock.schedule(() => this.releaseWaiter(waiter), this.maxWaitMs);
      this.waiting.push(waiter);
      this.scheduleRelease();
    });
  }

  afterAcks(): Promise<void> {
    if (this.inFlight === 0 && this.waiting.length === 0) return Promise.resolve();
    return this.turn();
  }

  /** Lets the oldest waiter go on the next turn if no request is unanswered then; one per turn. */
  private scheduleRelease(): void {
    if (this.releasing || this.inFlight > 0 || this.waiting.length === 0) return;
    this.releasing = true;
    this.clock.schedule(() => {
      this.releasing = false;
      if (this.inFlight > 0) return;
      const next = this.waiting.shift();
      next?.release();
      this.scheduleRelease();
    }, 0);
  }

  /** The bound passed: `waiter` goes now, requests in flight or not. */
  private releaseWaiter(waiter: Waiter): void {
    const at = this.waiting.indexOf(waiter);
    if (at < 0) return;
    this.waiting.splice(at, 1);
    waiter.release();
  }
}
