// Promises waiting per key, woken together: a long-poll waiting for a question's end, a call waiting for a
// person's sign-in. Each wait can be cancelled on its own (a client that goes away frees its entry at once).

export interface Waiting {
  /** Resolves when the key is woken. */
  done: Promise<void>;
  /** Forgets this wait; `done` then never resolves. */
  cancel(): void;
}

export class Wakers {
  private readonly byKey = new Map<string, Set<() => void>>();

  wait(key: string): Waiting {
    let wake = (): void => undefined;
    const done = new Promise<void>((resolve) => (wake = resolve));
    const set = this.byKey.get(key) ?? new Set();
    set.add(wake);
    this.byKey.set(key, set);
    const cancel = (): void => {
      set.delete(wake);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
    return { done, cancel };
  }

  /** Resolves every wait on `key`. */
  wake(key: string): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    this.byKey.delete(key);
    for (const wake of set) wake();
  }

  /** Resolves every wait on every key. */
  wakeAll(): void {
    for (const key of [...this.byKey.keys()]) this.wake(key);
  }

  /** Forgets every wait without resolving it. */
  clear(): void {
    this.byKey.clear();
  }

  /** How many waits are open. */
  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }
}
