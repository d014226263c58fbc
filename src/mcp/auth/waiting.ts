// A call waiting for its person's sign-in (person-auth.ts, enterprise-session.ts): bounded, cancellable, ended at
// once when the person refused at the sign-in page or its callback failed, and the error a call gets when nobody can
// be asked to sign in.
import { SignInError } from './types.js';
import type { SignInOutcome } from './wakes.js';

/** How long a call waits for its person's sign-in by default: 10 minutes, as long as a `state` lives. */
export const DEFAULT_SIGN_IN_WAIT_MS = 10 * 60_000;

/**
 * Resolves when `done` says the person signed in; rejects denied when it says they refused, token_exchange_failed
 * when its callback failed, sign_in_timeout after `waitMs` (ms), or with the reason `signal` aborts with.
 */
export function boundedWait(
  done: Promise<SignInOutcome>,
  server: string,
  waitMs: number = DEFAULT_SIGN_IN_WAIT_MS,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(
        new SignInError(
          'sign_in_timeout',
          server,
          `no sign-in to ${server} within ${Math.round(waitMs / 1000)} s; run /mcp connect ${server} in Slack, then call again`,
        ),
      );
    }, waitMs);
    const aborted = (): void => {
      finish();
      // The call was cancelled (its person or the bot gave up): end with the reason it was given.
      const reason: unknown = signal?.reason;
      reject(
        reason instanceof Error
          ? reason
          : new Error('cancelled while waiting for a sign-in', { cause: reason }),
      );
    };
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    };
    signal?.addEventListener('abort', aborted, { once: true });
    done.then((outcome) => {
      finish();
      if (outcome === 'signed_in') resolve();
      else reject(outcome === 'denied' ? denied(server) : callbackFailed(server));
    }, reject);
  });
}

function denied(server: string): SignInError {
  return new SignInError(
    'denied',
    server,
    `access to ${server} was not granted at its sign-in page; run /mcp connect ${server} in Slack to try again`,
  );
}

/** The callback could not exchange the code (refused, or the registration forgotten): its link is spent. */
function callbackFailed(server: string): SignInError {
  return new SignInError(
    'token_exchange_failed',
    server,
    `the sign-in to ${server} did not complete: its code could not be exchanged for tokens; run /mcp connect ` +
      `${server} in Slack for a new link, then call again`,
  );
}

/** A call for a person with no grant where no prompt can be shown (an API call): how to connect. */
export function notConnected(server: string): SignInError {
  return new SignInError(
    'not_connected',
    server,
    `this person has not connected to ${server}: run /mcp connect ${server} in Slack, sign in, then call again`,
  );
}
