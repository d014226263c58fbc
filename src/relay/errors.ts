// Local errors: typed, with a `code` from RelayErrorCode, a `name` and a native `cause`. Never branch on message text.

/** Why the relay could not take, show or route a question. */
export type RelayErrorCode =
  /** The form cannot be rendered, or its fields look like secrets (reaches the server as -32602). */
  | 'invalid_schema'
  /** A URL-mode link may not be shown: not http(s), too long or unparsable (reaches the server as -32602). */
  | 'invalid_url'
  /** Too many questions from one server are waiting (its maxPending); reaches the server as -32600. */
  | 'rate_limited'
  /** Slack could not list a configured user group, so who may answer is unknown. */
  | 'answerers_unavailable'
  /** An asker named nobody who could answer (an empty user group, or one Slack knows no such group as). */
  | 'no_answerers'
  /**
   * Slack refuses for good to list a channel's members (deleted, archived, or a private channel the bot is no
   * longer in): who may answer a question asked of anyone in it can no longer be checked.
   */
  | 'channel_unlistable'
  /** chat.postMessage (the card or a reminder) answered ok: false. */
  | 'slack_post_failed'
  /** chat.update of the card answered ok: false, or an update job had no message ts. */
  | 'slack_update_failed'
  /** Slack refused a call for a scope the bot token lacks (a reinstall dropped it): the message names it. */
  | 'missing_scope'
  /** Slack answered ok without a field the call needs (message ts, view id, DM channel). */
  | 'slack_bad_response'
  /** A distributed (OAuth) app got a Web API call without the workspace's team id. */
  | 'no_workspace'
  /** The workspace's installation has no bot token. */
  | 'no_bot_token';

/** `Code` lets a family built on it carry its own union (StoreError; the stand-in and sandbox keep string codes). */
export class RelayError<Code extends string = RelayErrorCode> extends Error {
  override name = 'RelayError';
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The code of a RelayError of any family (instanceof alone leaves the code's type open), else undefined. */
export function relayErrorCode(error: unknown): string | undefined {
  if (!(error instanceof RelayError) || typeof error.code !== 'string') return undefined;
  return error.code;
}
