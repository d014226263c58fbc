// Slack's `missing_scope` refusal (HTTP 200, ok: false, with the scope `needed` and the token's `provided`): the
// workspace installed the app with fewer scopes than manifest.yml asks for (a reinstall that dropped some). No
// retry gets past it; the fix is a reinstall with that scope, which each caller's log line or refusal names.
import { webApi } from '@slack/bolt';
import { RelayError } from '../relay/errors.js';
import { isWebApiCallError } from './outbox/slack-calls.js';

export interface MissingScope {
  /** The scope the call needs, as Slack names it (e.g. `im:write`). */
  needed: string;
  /** The token's scopes, comma-separated, as Slack lists them. */
  provided: string;
}

const textOr = (value: unknown, otherwise: string): string => (typeof value === 'string' ? value : otherwise);

/** The scope Slack says a failed call lacked, or undefined for any other failure. */
export function missingScopeOf(error: unknown): MissingScope | undefined {
  if (!isWebApiCallError(error) || error.code !== webApi.ErrorCode.PlatformError) return undefined;
  const { data } = error;
  if (data.error !== 'missing_scope') return undefined;
  const needed = textOr('needed' in data ? data.needed : undefined, 'unnamed');
  return { needed, provided: textOr('provided' in data ? data.provided : undefined, '') };
}

/** What the refusal means and its fix, for a log line or an API refusal. */
export function reinstallWith(scope: MissingScope): string {
  return (
    `the bot token lacks the ${scope.needed} scope (it has: ${scope.provided || 'none'}); ` +
    `reinstall the app in the workspace with ${scope.needed} (manifest.yml lists it)`
  );
}

/**
 * `cause` as RelayError('missing_scope') saying `why` the call was made and the fix, when Slack refused it for a
 * scope the token lacks (no retry helps until the app is reinstalled with it); undefined for any other failure.
 */
export function missingScopeError(why: string, cause: unknown): RelayError | undefined {
  const scope = missingScopeOf(cause);
  return scope && new RelayError('missing_scope', `${why}: ${reinstallWith(scope)}`, { cause });
}
