// GET …?wait=N: holds a request until its question or call ends (woken by the ended stream's reader, on
// whichever replica it ended), N seconds pass, or the client goes away; then reads the resource once more.
// Nothing of the resource is kept while a request waits (its async frames hold a marker, not the record): a
// held request costs its subscription, its timer and its close listener beside what Node's HTTP server keeps
// for it (issue #16: a waiting request costs a few KB at most).
import type { ServerResponse } from 'node:http';
import type { RelayClock } from '../relay/relay.js';
import type { EndedEvents } from './ended.js';
import { sendJson } from './http.js';
import { WAIT_QUERY } from './schemas.js';
import { validator } from './validate.js';

/** Query of GET …/{id}: `wait` seconds (0–60). */
export const validWait = validator<{ wait?: number }>(WAIT_QUERY, { coerce: true });

export interface LongPoll<T> {
  ended: Pick<EndedEvents, 'subscribe'>;
  clock: RelayClock;
  /** Reads the resource as the asking client may see it: undefined once it is gone, or when it is not theirs. */
  read(): Promise<T | undefined>;
  /** True while the resource has not ended. */
  pending(resource: T): boolean;
  /** The contract's GET shape of the resource. */
  view(resource: T): Record<string, unknown>;
  /** The error for a resource that is not there (or not the client's). */
  notFound(): Error;
}

/** Marks a read that found the resource still pending; what waits keeps this rather than the record. */
const PENDING = Symbol('pending');

/**
 * Answers 200 with the resource now, when it has ended or `waitSec` is 0; else once it ended or `waitSec`
 * passed (nothing when the client left meanwhile). Throws notFound() when it is not there.
 */
export async function answerAfterWait<T>(
  poll: LongPoll<T>,
  id: string,
  waitSec: number,
  res: ServerResponse,
): Promise<void> {
  const now = await readNow(poll, waitSec > 0);
  if (now !== PENDING) return sendJson(res, 200, poll.view(now));
  const ended = await waitForEnd(poll, id, waitSec * 1000, res);
  if (res.destroyed) return;
  if (ended === undefined) throw poll.notFound();
  sendJson(res, 200, poll.view(ended));
}

/** The resource, or PENDING when it is pending and the caller would wait for it. */
async function readNow<T>(poll: LongPoll<T>, waiting: boolean): Promise<T | typeof PENDING> {
  const now = await poll.read();
  if (now === undefined) throw poll.notFound();
  return waiting && poll.pending(now) ? PENDING : now;
}

/** The resource once it ended or `ms` passed; undefined when it is gone or the client left. */
async function waitForEnd<T>(
  poll: LongPoll<T>,
  id: string,
  ms: number,
  res: ServerResponse,
): Promise<T | undefined> {
  const subscription = poll.ended.subscribe(id);
  let cancelTimer = (): void => undefined;
  let onClose = (): void => undefined;
  try {
    // Subscribed first, then read: an end between the two still wakes us.
    const now = await readNow(poll, true);
    if (now !== PENDING) return now;
    await Promise.race([
      subscription.ended,
      new Promise<void>((resolve) => {
        cancelTimer = poll.clock.schedule(resolve, ms);
        onClose = resolve;
        res.once('close', onClose);
      }),
    ]);
  } finally {
    subscription.cancel();
    cancelTimer();
    res.off('close', onClose);
  }
  return res.destroyed ? undefined : await poll.read();
}
