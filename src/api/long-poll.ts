// GET …?wait=N: holds a request until its question or call ends (woken by the ended stream's reader, on
// whichever replica it ended), N seconds pass, or the client goes away; then reads the resource once more.
// Nothing of the resource is kept while a request waits, and no async frame either: the request is handed to a
// HeldRequest, which keeps only what answering needs, and one callback serves its end, its timer and its
// client's close (issue #16: a waiting request costs a few KB at most, most of them Node's own for the socket).
import type { ServerResponse } from 'node:http';
import type { RelayClock } from '../relay/relay.js';
import type { ApiClient } from './auth.js';
import type { EndedEvents } from './ended.js';
import { sendJson } from './http.js';
import { WAIT_QUERY } from './schemas.js';
import { validator } from './validate.js';

/** Query of GET …/{id}: `wait` seconds (0–60). */
const validWait = validator<{ wait?: number }>(WAIT_QUERY, { coerce: true });

/** What a long-poll reads and waits on; implemented by a class per resource, so a held one is one object. */
export interface LongPoll<T> {
  readonly ended: Pick<EndedEvents, 'listen' | 'unlisten'>;
  readonly clock: RelayClock;
  /** Reads the resource as the asking client may see it: undefined once it is gone, or when it is not theirs. */
  read(): Promise<T | undefined>;
  /** True while the resource has not ended. */
  pending(resource: T): boolean;
  /** The contract's GET shape of the resource. */
  view(resource: T): Record<string, unknown>;
  /** The error for a resource that is not there (or not the client's). */
  notFound(): Error;
}

/**
 * A long-poll on one of the client's own resources, a class per kind (questions.ts, calls.ts): a held request
 * keeps this one object, where an object of closures would keep one function and context each.
 */
export abstract class ClientPoll<T, D extends Pick<LongPoll<T>, 'ended' | 'clock'>> implements LongPoll<T> {
  readonly ended: LongPoll<T>['ended'];
  readonly clock: RelayClock;

  constructor(
    protected readonly deps: D,
    protected readonly client: ApiClient,
    readonly id: string,
  ) {
    this.ended = deps.ended;
    this.clock = deps.clock;
  }

  abstract read(): Promise<T | undefined>;
  abstract pending(resource: T): boolean;
  abstract view(resource: T): Record<string, unknown>;
  abstract notFound(): Error;
}

/** GET …/{id}[?wait=N] of one of the client's own resources: the query checked, then answerAfterWait. */
export function answerGet<T, D extends Pick<LongPoll<T>, 'ended' | 'clock'>>(
  poll: ClientPoll<T, D>,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  const { wait = 0 } = validWait(Object.fromEntries(query));
  return answerAfterWait(poll, poll.id, wait, res);
}

/**
 * Answers 200 with the resource now, when it has ended or `waitSec` is 0; else once it ended or `waitSec`
 * passed (nothing when the client left meanwhile). Rejects with notFound() when it is not there.
 */
export async function answerAfterWait<T>(
  poll: LongPoll<T>,
  id: string,
  waitSec: number,
  res: ServerResponse,
): Promise<void> {
  if (waitSec === 0) return sendJson(res, 200, poll.view(await readResource(poll)));
  // A held request reads once, right after it listens (HeldRequest.hold): no read before it is needed.
  return new Promise<void>((resolve, reject) =>
    new HeldRequest(poll, id, res, resolve, reject).hold(waitSec * 1000),
  );
}

/** The resource; rejects with notFound() when it is not there. */
async function readResource<T>(poll: LongPoll<T>): Promise<T> {
  const now = await poll.read();
  if (now === undefined) throw poll.notFound();
  return now;
}

/** A request waiting for its resource's end; `answer` runs once, on the first of end, timer and close. */
class HeldRequest<T> {
  private cancelTimer: () => void = noop;
  private answered = false;
  /** The one callback of the end, the timer and the close: answer() with nothing known yet. */
  private readonly wake: () => void;

  constructor(
    private readonly poll: LongPoll<T>,
    private readonly id: string,
    private readonly res: ServerResponse,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.wake = this.answer.bind(this, undefined);
  }

  /** Listens first, then reads: an end between the two still wakes it. A client gone already is let go. */
  hold(ms: number): void {
    this.poll.ended.listen(this.id, this.wake);
    this.cancelTimer = this.poll.clock.schedule(this.wake, ms);
    this.res.on('close', this.wake);
    if (this.res.destroyed) return this.wake();
    readResource(this.poll).then(
      (now) => {
        if (!this.poll.pending(now)) this.answer(now);
      },
      (error: unknown) => this.fail(error),
    );
  }

  /** Stops waiting and answers with `known`, or with the resource read now (nothing if the client left). */
  private answer(known: T | undefined): void {
    if (!this.stop()) return;
    if (this.res.destroyed) return this.resolve();
    const read = known === undefined ? this.poll.read() : Promise.resolve(known);
    read
      .then((resource) => {
        if (resource === undefined) throw this.poll.notFound();
        if (!this.res.destroyed) sendJson(this.res, 200, this.poll.view(resource));
      })
      .then(this.resolve, this.reject);
  }

  private fail(error: unknown): void {
    if (this.stop()) this.reject(error);
  }

  /** Drops the listener, the timer and the close listener; false when it had already stopped. */
  private stop(): boolean {
    if (this.answered) return false;
    this.answered = true;
    this.poll.ended.unlisten(this.id, this.wake);
    this.cancelTimer();
    this.res.off('close', this.wake);
    return true;
  }
}

const noop = (): void => undefined;
