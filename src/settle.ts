// Bounded waiting: let work finish, but never wait on it forever (Redis may be gone or hung).

/** `work`'s value, or `late` once `ms` pass without one. */
export async function answerWithin<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  try {
    return await Promise.race([work, grace]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for the promises to settle, or for `ms`, whichever comes first; true when they all settled. */
export async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<boolean> {
  if (promises.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([Promise.allSettled(promises).then(() => true), grace]);
  clearTimeout(timer);
  return settled;
}
