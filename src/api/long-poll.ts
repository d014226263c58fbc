// GET …?wait=N: holds a request until its question or call ends (woken by the ended stream's reader, on
// whichever replica it ended), N seconds pass, or the client goes away; then reads the resource once more.
import type { ServerResponse } from 'node:http';
import type { RelayClock } from '../relay/relay.js';
import type { EndedEvents } from './ended.js';
import { WAIT_QUERY } from './schemas.js';
import { validator } from './validate.js';

/** Query of GET …/{id}: `wait` seconds (0–60). */
export const validWait = validator<{ wait?: number }>(WAIT_QUERY, { coerce: true });

export interface LongPoll<T> {
  ended: Pick<EndedEvents, 'subscribe'>;
  clock: RelayClock;
  /** Reads the resource (undefined once it is gone). */
  read(): Promise<T | undefined>;
  /** True while the resource has not ended. */
  pending(resource: T): boolean;
}

/** `current` if it has ended or `waitSec` is 0; else the resource once it ended or `waitSec` passed. */
export async function afterWait<T>(
  poll: LongPoll<T>,
  current: T,
  id: string,
  waitSec: number,
  res: ServerResponse,
): Promise<T> {
  if (waitSec === 0 || !poll.pending(current)) return current;
  return (await waitForEnd(poll, id, waitSec * 1000, res)) ?? current;
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
    const current = await poll.read();
    if (current === undefined || !poll.pending(current)) return current;
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
