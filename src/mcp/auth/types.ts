// The port between the MCP side's sign-in (OAuth per person, src/mcp/auth) and the Slack side that tells
// the person and receives the browser's callback (src/slack). Nothing here holds a token: tokens stay in
// the vault, encrypted, and never cross this port.

/** A person in one Slack workspace: tokens and sign-ins belong to this pair. */
export interface Person {
  teamId: string;
  userId: string;
}

/** Why the person must sign in: never connected, the grant expired or was revoked, or a tool needs more scope. */
export type SignInReason = 'first' | 'expired' | 'revoked' | 'step_up';

/** A sign-in the person has to do in their browser before calls to `server` can go on. */
export interface SignInNeeded {
  server: string;
  person: Person;
  /**
   * The authorization server's page (PKCE, `state`, `redirect_uri` and `resource` included). The Connect button
   * opens the bot's start page for its `state`, which sends the browser on here.
   */
  authorizationUrl: URL;
  scopes: string[];
  reason: SignInReason;
  /** Set when the sign-in is to the company IdP (its issuer) for an enterprise-managed `server`. */
  idp?: string;
}

/** Implemented by src/slack: tells the person (a DM with a Connect button naming the server and the scopes). */
export interface SignInPrompter {
  prompt(need: SignInNeeded): Promise<void>;
}

/** One server a person is connected to, as shown in the App Home. */
export interface Connection {
  server: string;
  scopes: string[];
  /** When the access token expires; absent when the server did not say (it may still be refreshed). */
  expiresAt?: Date;
  connectedAt: Date;
}

/** What the callback route hands over: the query of `${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/callback`. */
export interface CallbackParams {
  state: string;
  code?: string;
  /** The authorization server's `error` (e.g. access_denied) when the person refused or it failed. */
  error?: string;
  /** The authorization server's `iss` (RFC 9207), when it sends one: pass it on, it is checked. */
  iss?: string;
}

/**
 * What the bot's start page shows for a Connect link before anyone signs in: whose Slack account the link
 * connects to which server, and the authorization page its Continue leads to.
 */
export interface SignInStart {
  server: string;
  person: Person;
  authorizationUrl: URL;
}

/** Implemented by src/mcp, used by src/slack (commands, App Home, the start page and the callback route). */
export interface Connections {
  /** `/mcp connect <server>`: a fresh sign-in for the person. Rejects SignInError 'not_oauth_server'. */
  begin(server: string, person: Person): Promise<SignInNeeded>;
  /**
   * The start page of a Connect link: whose link `state` is and where it leads (`state` is read, not consumed).
   * Rejects SignInError state_invalid | state_expired | state_used | state_spent.
   */
  start(state: string): Promise<SignInStart>;
  /** The callback: checks and consumes `state`, exchanges the code, stores the tokens, wakes waiting calls. */
  complete(params: CallbackParams): Promise<{ server: string; person: Person }>;
  list(person: Person): Promise<Connection[]>;
  /** Deletes the person's tokens for `server`; false when they had none. */
  disconnect(server: string, person: Person): Promise<boolean>;
}

/** The path of the callback route on PORT; the full URL is ELICIT_RELAY_PUBLIC_URL + this. */
export const CALLBACK_PATH = '/oauth/mcp/callback';

export type SignInErrorCode =
  /** `state` unknown (forged, or never issued by this deployment). */
  | 'state_invalid'
  /** `state` was issued but its 10 minutes are over. */
  | 'state_expired'
  /** `state` was already consumed by an earlier callback that completed the sign-in (a replay). */
  | 'state_used'
  /**
   * `state` was consumed by an earlier callback that did not connect (refused at the sign-in page, no code,
   * or its code failed): the link cannot be used again, a new one is needed.
   */
  | 'state_spent'
  /** The person refused at the authorization server (error=access_denied or any other `error`). */
  | 'denied'
  | 'token_exchange_failed'
  /** The server's protected resource metadata names a resource other than the configured URL. */
  | 'resource_mismatch'
  /** A call for a person with no tokens, where no prompt can be shown (the HTTP API): connect first. */
  | 'not_connected'
  /** The server is not configured with `auth.mode: oauth` or `enterpriseManaged`. */
  | 'not_oauth_server'
  /** No sign-in completed within the wait (10 minutes, as long as a `state` lives; person-auth.ts). */
  | 'sign_in_timeout'
  /** The server kept answering insufficient_scope after the step-up limit. */
  | 'step_up_limit'
  /**
   * The callback's link was made with a registered client the authorization server no longer knows
   * (invalid_client): the person connects again, with the client registered now.
   */
  | 'client_forgotten'
  /** Discovery or registration with the authorization server failed. */
  | 'discovery_failed'
  /**
   * The company IdP could not renew or exchange the person's sign-in just now (unreachable, or a 5xx): the
   * sign-in is kept and the call can be made again.
   */
  | 'idp_unavailable'
  /**
   * Other refreshes of the person's grant held it longer than a refresh waits for it (vault.ts,
   * REFRESH_CLAIM_WAIT_MS): nothing was dropped, and the call can be made again.
   */
  | 'refresh_busy';

/** A sign-in that could not go on; `code` says why, `server` which server. Never carries a token. */
export class SignInError extends Error {
  override name = 'SignInError';
  /**
   * Whose Connect link it spent: set when the callback refused a link it had consumed (denied, its code refused),
   * so the Slack side updates that person's Connect message; absent when no link was spent.
   */
  readonly person: Person | undefined;
  constructor(
    readonly code: SignInErrorCode,
    readonly server: string,
    message: string,
    options?: { cause?: unknown; person?: Person },
  ) {
    super(message, options);
    this.person = options?.person;
  }
}
