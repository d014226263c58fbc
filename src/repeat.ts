// A background sweep: `work` every `everyMs` on the injected clock, one run at a time, until stop() (which
// waits for a run in progress). A run that fails is reported and the next one still comes.
import type { Clock } from './clock.js';

export function repeatEvery(
  clock: Pick<Clock, 'schedule'>,
  everyMs: number,
  work: () => Promise<unknown>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let cancel = (): void => undefined;
  let stopped = false;
  const next = (): void => {
    cancel = clock.schedule(() => {
      running = work()
        .catch(onError)
        .finally(() => {
          if (!stopped) next();
        });
    }, everyMs);
  };
  next();
  return async () => {
    stopped = true;
    cancel();
    await running;
  };
}
