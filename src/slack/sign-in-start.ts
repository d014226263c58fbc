// GET ${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/start?state=…: where a Connect button leads (sign-in-links.ts says
// why). Reads the link's `state` without spending it and shows one small page naming whose Slack account the
// link connects, with a Continue link to the authorization server's page, and nothing else: someone sent a
// forwarded link sees it is not theirs before they sign in. With the app's client credentials (`identity`), the
// page leads to Sign in with Slack instead, and only the link's owner goes on (sign-in-identity-page.ts); its
// browser gets the cookie that binds that sign-in to it (sign-in-browser.ts). A link no longer usable (unknown,
// expired, used) gets the callback's refusal page. Everything shown is escaped.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Locale } from '../../blocks/index.js';
import { SignInError, type Connections } from '../mcp/index.js';
import {
  escapeHtml,
  localeOf,
  page,
  refuse,
  REFUSED,
  TITLE,
  type SignInCallbackDeps,
} from './sign-in-callback.js';
import type { IdentityCheck } from './sign-in-identity.js';
import { callbackOf, identityUrlOf } from './sign-in-links.js';
import type { LinkOwner, OwnerLookup } from './sign-in-owner.js';

export interface SignInStartDeps {
  connections: Pick<Connections, 'start'>;
  /** The link owner's name and language (users.info); never rejects. */
  ownerOf: OwnerLookup;
  logger: SignInCallbackDeps['logger'];
  /** Sign in with Slack before the authorization server; absent without the app's client credentials. */
  identity?: IdentityCheck;
}

/** Whose link it is and where it leads (src/mcp's SignInStart). */
type SignInStart = Awaited<ReturnType<Connections['start']>>;

interface StartText {
  title: (server: string) => string;
  /** The owner: their name (absent when Slack did not say), Slack user id and workspace. */
  who: (name: string | undefined, userId: string, team: string) => string;
  ask: (server: string, who: string) => string;
  proceed: string;
  /** The same, when the person signs in with Slack first. */
  askIdentity: (server: string, who: string) => string;
  signInWithSlack: string;
}

const TEXT: Record<Locale, StartText> = {
  en: {
    title: (s) => `Connect ${s}?`,
    who: (name, id, team) =>
      name === undefined ? `<@${id}> (workspace ${team})` : `${name} (<@${id}>, workspace ${team})`,
    ask: (s, who) =>
      `Connect ${s} for ${who}? Only continue if this is you: ` +
      'whoever signs in next gives that Slack account their access.',
    proceed: 'Continue',
    askIdentity: (s, who) =>
      `Connect ${s} for ${who}? Sign in with Slack to show this is you: only that Slack account can go on.`,
    signInWithSlack: 'Sign in with Slack',
  },
  'zh-CN': {
    title: (s) => `连接 ${s}？`,
    who: (name, id, team) =>
      name === undefined ? `<@${id}>（工作区 ${team}）` : `${name}（<@${id}>，工作区 ${team}）`,
    ask: (s, who) =>
      `为${who}连接 ${s}？只有这是你本人时才继续：接下来登录的人会把自己的访问权限交给这个 Slack 账户。`,
    proceed: '继续',
    askIdentity: (s, who) =>
      `为${who}连接 ${s}？请用 Slack 登录以确认是你本人：只有这个 Slack 账户可以继续。`,
    signInWithSlack: '用 Slack 登录',
  },
};

/** Where the page's one link leads: the authorization server's page, or Sign in with Slack first. */
interface NextStep {
  href: string;
  id: 'continue' | 'slack-sign-in';
  /** The browser cookie that binds the Slack sign-in to this browser. */
  cookie?: string;
}

function startPage(res: ServerResponse, start: SignInStart, owner: LinkOwner, next: NextStep): void {
  const text = TEXT[owner.locale ?? 'en'];
  const title = escapeHtml(text.title(start.server));
  const { userId, teamId } = start.person;
  const who = text.who(owner.name, userId, teamId);
  const ask = next.id === 'continue' ? text.ask(start.server, who) : text.askIdentity(start.server, who);
  const label = next.id === 'continue' ? text.proceed : text.signInWithSlack;
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // Text and one link only: nothing is loaded or run, and no other site may frame it (a hidden Continue).
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
    ...(next.cookie === undefined ? {} : { 'set-cookie': next.cookie }),
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1>` +
      `<p id="owner">${escapeHtml(ask)}</p>` +
      `<p><a id="${next.id}" href="${escapeHtml(next.href)}">${escapeHtml(label)}</a></p>`,
  );
}

/** The page's next step: Continue without `identity`, else Sign in with Slack bound to this browser. */
function nextStep(
  req: IncomingMessage,
  state: string,
  start: SignInStart,
  identity?: IdentityCheck,
): NextStep {
  if (identity === undefined) return { href: start.authorizationUrl.href, id: 'continue' };
  const callback = callbackOf(start.authorizationUrl);
  if (callback === undefined)
    throw new SignInError('state_invalid', start.server, 'the authorization page names no callback');
  const { browsers, slack } = identity;
  const browser = browsers.browserOf(req, callback) ?? browsers.newBrowser();
  const nonce = browsers.nonceFor(browser, state);
  const signIn = slack.authorizeUrl({ state, nonce, redirectUri: identityUrlOf(callback) });
  return { href: signIn.href, id: 'slack-sign-in', cookie: browsers.browserCookie(browser, callback) };
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: SignInStartDeps): Promise<void> {
  const state = new URL(req.url ?? '/', 'http://bot').searchParams.get('state') ?? '';
  try {
    const start = await deps.connections.start(state);
    const next = nextStep(req, state, start, deps.identity);
    startPage(res, start, await deps.ownerOf(start.person), next);
  } catch (error) {
    const locale = localeOf(req);
    if (error instanceof SignInError) return refuse(res, locale, error, deps.logger);
    deps.logger.error({ err: error }, 'sign-in start page failed');
    page(res, 500, TITLE[locale].refused, REFUSED[locale].other);
  }
}

/** The route's handler, for the bot's HTTP server (GET START_PATH). */
export function signInStart(deps: SignInStartDeps): RequestListener {
  return (req, res) => void handle(req, res, deps).catch(() => res.destroy());
}
