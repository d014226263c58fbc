// How long a question's end is waited for past its deadline, and tried again while Redis is away.

/**
 * How long past its deadline a question waits for its timeout job before the holder ends it itself, in ms
 * (RelayOptions.backstopGraceMs). Whatever Redis does, its server has been told cancel by then, so the
 * answering service takes no act on it from then on (src/answering/decide.ts).
 */
export const BACKSTOP_GRACE_MS = 5_000;

/** How long a local end (a stop, the backstop, a call ended) is tried again while Redis is away, in ms. */
export const LOCAL_END_RETRY_MS = 5_000;
