// Slack's refusals of the app-level token (SLACK_APP_TOKEN) on apps.connections.open, each as a wrong setting
// with the fix a person needs, and the watch that hears them: AppTokenWatch is the Socket Mode client's `fetch`
// and reports each refusal as Slack answers it, before the library reads the answer (and logs it), so the
// bot's own state (app-token-status.ts) is current by then. At start-up a refusal ends start-up
// (socket-link.ts); while the bot runs it makes /readyz 503 until Slack takes the token again.
import { ConfigError } from '../config/index.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Slack's error codes for apps.connections.open that mean the token itself is wrong (the method's documented errors). */
export type AppTokenRefusalCode =
  | 'invalid_auth'
  | 'not_authed'
  | 'account_inactive'
  | 'token_revoked'
  | 'token_expired'
  | 'missing_scope'
  | 'not_allowed_token_type';

const NEW_TOKEN =
  "Generate a new app-level token (xapp-…) with the connections:write scope on your app's Basic Information page (App-Level Tokens), and set SLACK_APP_TOKEN to it.";

/** What a person does about each refusal. */
const FIXES: Record<AppTokenRefusalCode, string> = {
  invalid_auth:
    "Copy the app-level token (xapp-…) from your app's Basic Information page (App-Level Tokens), with Socket Mode turned on, or generate a new one with the connections:write scope.",
  not_authed: NEW_TOKEN,
  account_inactive:
    'The app or workspace this token belongs to is no longer active: use an app-level token (xapp-…) of an active app, with the connections:write scope.',
  token_revoked: NEW_TOKEN,
  token_expired: NEW_TOKEN,
  missing_scope:
    "The token lacks the connections:write scope Socket Mode needs: add it to the token on your app's Basic Information page (App-Level Tokens), or generate a new token with it.",
  not_allowed_token_type:
    "Set it to an app-level token (xapp-…), not a bot (xoxb-) or user (xoxp-) token: generate one with the connections:write scope on your app's Basic Information page.",
};

function isRefusalCode(code: unknown): code is AppTokenRefusalCode {
  return typeof code === 'string' && Object.hasOwn(FIXES, code);
}

/** The refusal as the wrong setting it is: SLACK_APP_TOKEN, Slack's code and the fix. */
export function refusalError(code: AppTokenRefusalCode, cause?: unknown): ConfigError {
  const problem = `Slack refused it (apps.connections.open: ${code})`;
  return new ConfigError('SLACK_APP_TOKEN', problem, FIXES[code], { cause });
}

/** Slack's error code as the wrong setting it is, when it refuses the app-level token; else undefined. */
export function appTokenRefused(code: string, cause: unknown): ConfigError | undefined {
  return isRefusalCode(code) ? refusalError(code, cause) : undefined;
}

/** The refusal code in an apps.connections.open answer's JSON text, if it is one. */
function refusalIn(text: string): AppTokenRefusalCode | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || !('ok' in body) || body.ok !== false) return undefined;
  const code = 'error' in body ? body.error : undefined;
  return isRefusalCode(code) ? code : undefined;
}

const CONNECTIONS_OPEN = /\/apps\.connections\.open$/;

/** The Socket Mode client's `fetch` (its WebClient calls only apps.connections.open), telling each refusal. */
export class AppTokenWatch {
  /**
   * `onRefused`: hears each refusal's code, before the client reads the answer; `fetchFn`: the one it watches,
   * default Node's, which the library uses when given none.
   */
  constructor(
    private readonly onRefused: (code: AppTokenRefusalCode) => void,
    private readonly fetchFn: Fetch = (url, init) => fetch(url, init),
  ) {}

  readonly fetch: Fetch = async (url, init) => {
    const response = await this.fetchFn(url, init);
    if (response.status !== 200 || !CONNECTIONS_OPEN.test(new URL(url).pathname)) return response;
    // A clone: the WebClient reads the body itself. One small answer per connection attempt.
    const code = refusalIn(await response.clone().text());
    if (code !== undefined) this.onRefused(code);
    return response;
  };
}
