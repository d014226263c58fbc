// Garbage collection on demand, for tests that prove memory is let go: each holds only a WeakRef to what should
// be released, collects, and reads the WeakRef. `--expose-gc` set at run time gives this worker a `gc`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage once the current job is over (a WeakRef's target is kept until then). */
export async function collectGarbage(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** Collects garbage, then whether `ref`'s target is gone. */
export async function collected(ref: WeakRef<object>): Promise<boolean> {
  await collectGarbage();
  return ref.deref() === undefined;
}
