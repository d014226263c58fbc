// What ends a question this replica waits on without Redis's word: its backstop, at its deadline plus a grace
// (the timeout job never fired, or Redis lost the question), and its call's signal aborting (the server withdrew
// the request, or the call ended). Either way the waiting MCP request gets its outcome, never hangs.
import { BACKSTOP_GRACE_MS } from './grace.js';
import type { RelayClock } from './ports.js';
import type { EndReason, Question } from './types.js';

export interface LocalEnds {
  clock: RelayClock;
  /** Wait past the deadline before the backstop ends the question, in ms; default BACKSTOP_GRACE_MS. */
  graceMs: number | undefined;
  /** Ends the question here with the reason (the relay's local end). */
  end: (reason: EndReason) => void;
}

/** Watches for the question's local ends; the returned function stops watching (once its outcome is in). */
export function watchLocalEnds(question: Question, signal: AbortSignal, ends: LocalEnds): () => void {
  const cancelBackstop = ends.clock.schedule(
    () => ends.end('timed_out'),
    Math.max(0, question.deadline - question.createdAt) + (ends.graceMs ?? BACKSTOP_GRACE_MS),
  );
  const onAbort = (): void => ends.end(abortReason(signal));
  signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    cancelBackstop();
    signal.removeEventListener('abort', onAbort);
  };
}

function abortReason(signal: AbortSignal): EndReason {
  return signal.reason === 'call_ended' ? 'call_ended' : 'withdrawn';
}
