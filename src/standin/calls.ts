// The stand-in's call log: every Web API and response_url request, with event-driven waiting on it.
import { RelayError } from '../relay/errors.js';

export interface RecordedCall {
  /** Web API method (`chat.postMessage`), `response_url`, or `response_action` (a view_submission ack). */
  method: string;
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  /** Workspace whose bot token made the call (Web API calls that carried a valid bot token). */
  teamId?: string;
  /** Epoch ms by the stand-in's clock. */
  at: number;
}

/** Errors the stand-in and driver throw at their callers (tests), never sent over the wire. */
export class StandinError extends RelayError<string> {
  override name = 'StandinError';
}

interface Waiter {
  matches: (c: RecordedCall) => boolean;
  resolve: (c: RecordedCall) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Default bound of waitForCall, in ms: how long a caller waits for a call that should come, not how fast it
 * must come (that is measured by `npm run bench`). 15 s, since test runs share two loaded cores.
 */
export const DEFAULT_WAIT_MS = 15_000;

export class CallLog {
  readonly calls: RecordedCall[] = [];
  private readonly waiters = new Set<Waiter>();

  record(call: RecordedCall): RecordedCall {
    this.calls.push(call);
    for (const w of [...this.waiters]) {
      if (!w.matches(call)) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(call);
    }
    return call;
  }

  /** Resolves with the first call (already recorded or future) of `method` that satisfies `predicate`. */
  waitFor(
    method: string,
    predicate: (c: RecordedCall) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<RecordedCall> {
    const matches = (c: RecordedCall): boolean => c.method === method && predicate(c);
    const hit = this.calls.find(matches);
    if (hit) return Promise.resolve(hit);
    // Made here, not in the timer, so its stack names the test line that waited.
    const timedOut = new StandinError('wait_timeout', `no matching ${method} call within ${timeoutMs} ms`);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(timedOut);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Rejects every pending wait (the stand-in is closing). */
  close(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new StandinError('standin_closed', 'the Slack stand-in was closed while waiting'));
    }
    this.waiters.clear();
  }
}
