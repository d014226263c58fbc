// Callbacks waiting per key, woken together: a long-poll waiting for a question's end, a call waiting for a
// person's sign-in. Each can be forgotten on its own (a client that goes away frees its entry at once).
//
// A key with one waiter keeps the callback itself, not a Set of one: 1,000 long-polls on 1,000 questions are
// 1,000 map entries and nothing more (issue #16: a waiting request costs a few KB at most).

export interface Waiting {
  /** Resolves when the key is woken. */
  done: Promise<void>;
  /** Forgets this wait; `done` then never resolves. */
  cancel(): void;
}

export type Wake = () => void;

export class Wakers {
  private readonly byKey = new Map<string, Wake | Set<Wake>>();

  /** Calls `wake` once when `key` is woken, unless `remove(key, wake)` comes first. */
  add(key: string, wake: Wake): void {
    const there = this.byKey.get(key);
    if (there === undefined) this.byKey.set(key, wake);
    else if (there instanceof Set) there.add(wake);
    else this.byKey.set(key, new Set([there, wake]));
  }

  /** Forgets `wake` on `key`; a no-op once it was woken or removed. */
  remove(key: string, wake: Wake): void {
    const there = this.byKey.get(key);
    if (there === wake) this.byKey.delete(key);
    else if (there instanceof Set && there.delete(wake) && there.size === 0) this.byKey.delete(key);
  }

  /** A promise-shaped wait on `key`. */
  wait(key: string): Waiting {
    let wake: Wake = () => undefined;
    const done = new Promise<void>((resolve) => (wake = resolve));
    this.add(key, wake);
    return { done, cancel: () => this.remove(key, wake) };
  }

  /** Wakes every waiter on `key`. */
  wake(key: string): void {
    const there = this.byKey.get(key);
    if (there === undefined) return;
    this.byKey.delete(key);
    if (there instanceof Set) for (const wake of there) wake();
    else there();
  }

  /** Wakes every waiter on every key. */
  wakeAll(): void {
    for (const key of [...this.byKey.keys()]) this.wake(key);
  }

  /** Forgets every waiter without waking it. */
  clear(): void {
    this.byKey.clear();
  }

  /** How many waiters are there. */
  get size(): number {
    let n = 0;
    for (const there of this.byKey.values()) n += there instanceof Set ? there.size : 1;
    return n;
  }
}
