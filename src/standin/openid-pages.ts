// The browser side of Sign in with Slack on the stand-in (openid.ts): the authorize page, where a person picks
// which Slack user they are (a button per person the stand-in knows by name, or any user id typed; Slack would
// know from its own session) and is sent back to the app with a code, the JWKS and the OpenID configuration.
// Everything shown is escaped.
import type { IncomingMessage } from 'node:http';
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import type { Answer } from './http.js';
import type { OpenIdEndpoint } from './openid.js';
import type { StandinUser } from './store.js';

export const AUTHORIZE_PATH = '/openid/connect/authorize';
export const KEYS_PATH = '/openid/connect/keys';
export const CONFIGURATION_PATH = '/.well-known/openid-configuration';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Who may sign in on the page: the stand-in's workspace and the people it knows by name. */
export interface SignInChoices {
  team: string;
  people: Readonly<Record<string, StandinUser>>;
}

/** A person's browser at the authorize page, keys or configuration; undefined for any other path. */
export function openIdPage(
  openid: OpenIdEndpoint,
  path: string,
  args: Obj,
  req: IncomingMessage,
  choices: SignInChoices,
): Answer | undefined {
  if (path === KEYS_PATH) return { status: 200, body: openid.jwks() };
  if (path === CONFIGURATION_PATH) return { status: 200, body: openid.configuration() };
  if (path !== AUTHORIZE_PATH) return undefined;
  if (req.method === 'POST') return signedIn(openid, args);
  return signInForm(new URL(req.url ?? '/', 'http://standin').search, choices);
}

function html(status: number, body: string): Answer {
  return {
    status,
    body: {},
    text: `<!doctype html><meta charset="utf-8"><title>Sign in to Slack</title>${body}`,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" },
  };
}

/** The page's forms: the authorize request's query travels in a hidden field to the POST. */
function signInForm(search: string, { team, people }: SignInChoices): Answer {
  const hidden =
    `<input type="hidden" name="authorize" value="${escape(search)}">` +
    `<input type="hidden" name="team" value="${escape(team)}">`;
  const known = Object.entries(people).map(
    ([id, user]) =>
      `<form method="post" action="${AUTHORIZE_PATH}">${hidden}` +
      `<button type="submit" name="user" value="${escape(id)}">Sign in as ${escape(user.realName ?? user.name)}</button></form>`,
  );
  return html(
    200,
    `<h1>Sign in to Slack (stand-in)</h1>${known.join('')}` +
      `<form method="post" action="${AUTHORIZE_PATH}">${hidden}` +
      `<label>User <input name="user" required></label> <button type="submit">Sign in</button></form>`,
  );
}

function signedIn(openid: OpenIdEndpoint, args: Obj): Answer {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  try {
    const back = openid.approve(`http://standin/${text(args.authorize)}`, {
      userId: text(args.user),
      teamId: text(args.team),
    });
    return { status: 302, body: {}, text: '', headers: { location: back } };
  } catch (error) {
    if (!(error instanceof StandinError)) throw error;
    return html(400, `<h1>Sign in refused</h1><p id="error">${escape(error.code)}</p>`);
  }
}
