// Sockets and timers that would keep a process alive, for "closes everything it opened" tests.
// Tests run beside others in one worker, so a handle that existed before may end meanwhile; what matters is
// that nothing new is left.

/** The live handles now, by type (e.g. "TCPWrap", "Timeout"), sorted. */
export function liveHandles(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((r) => r !== 'PromiseResolve')
    .sort();
}

/** Handles live now beyond those in `before` (a multiset difference): empty when nothing was left behind. */
export function handlesAddedSince(before: readonly string[]): string[] {
  const remaining = [...before];
  return liveHandles().filter((handle) => {
    const i = remaining.indexOf(handle);
    if (i === -1) return true;
    remaining.splice(i, 1);
    return false;
  });
}
