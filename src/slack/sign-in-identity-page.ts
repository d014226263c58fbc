// GET ${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/slack-identity: where Sign in with Slack comes back to from a Connect
// link's start page (sign-in-start.ts). It takes only a browser holding the cookie the start page set (no cookie:
// a Slack callback forwarded or replayed elsewhere), exchanges the code, checks the id_token with the nonce of
// that browser, and goes on to the authorization server's page only when the person who signed in is the link's
// owner (same Slack user and workspace), setting the cookie the MCP callback then asks for. Anyone else gets a
// page naming both, and the link's `state` is left unspent, so its owner can still use it. Everything shown is
// escaped; the pages are in Chinese when the browser prefers it.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { SignInError, type Connections, type Person } from '../mcp/index.js';
import {
  localeOf,
  page,
  refuse,
  REFUSED,
  TITLE,
  type PageLocale,
  type SignInCallbackDeps,
} from './sign-in-callback.js';
import { IdentityError, type IdentityCheck, type IdentityErrorCode } from './sign-in-identity.js';
import { callbackOf, identityUrlOf } from './sign-in-links.js';

export interface IdentityPageDeps {
  connections: Pick<Connections, 'start'>;
  identity: IdentityCheck;
  logger: SignInCallbackDeps['logger'];
}

/** A Slack person as a mention, with their workspace when the other one is in another. */
const who = (person: Person, other: Person): string =>
  person.teamId === other.teamId ? `<@${person.userId}>` : `<@${person.userId}> (${person.teamId})`;

/** The pages of a refused identity check, by code; the mismatch names the owner and who signed in. */
const IDENTITY_REFUSED: Record<
  PageLocale,
  Record<Exclude<IdentityErrorCode, 'identity_mismatch'>, string> & {
    identity_mismatch: (owner: string, you: string) => string;
  }
> = {
  en: {
    identity_mismatch: (owner, you) =>
      `This link was made for ${owner}; you signed in as ${you}. Ask for your own with /mcp connect.`,
    identity_unbound:
      'This Slack sign-in was not started in this browser. Open the Connect link from Slack again. Nothing was connected.',
    identity_denied: 'Signing in with Slack was cancelled. Open the Connect link again to try again.',
    identity_failed:
      'Slack could not confirm who you are. Open the Connect link again. Nothing was connected.',
    identity_unverified:
      'This sign-in was not confirmed with Slack in this browser. Open your Connect link from Slack and sign in with Slack first. Nothing was connected.',
  },
  'zh-CN': {
    identity_mismatch: (owner, you) =>
      `此链接是为 ${owner} 生成的；你登录的是 ${you}。请用 /mcp connect 获取你自己的链接。`,
    identity_unbound: '此 Slack 登录不是在这个浏览器中开始的。请从 Slack 重新打开连接链接。未连接任何内容。',
    identity_denied: '已取消用 Slack 登录。请重新打开连接链接再试。',
    identity_failed: 'Slack 无法确认你的身份。请重新打开连接链接。未连接任何内容。',
    identity_unverified:
      '此登录未在这个浏览器中经 Slack 确认。请从 Slack 打开你的连接链接，先用 Slack 登录。未连接任何内容。',
  },
};

/** The page of a refused identity check (403: the person is not, or not shown to be, the link's owner). */
function refuseIdentity(
  res: ServerResponse,
  locale: PageLocale,
  error: IdentityError,
  logger: SignInCallbackDeps['logger'],
): void {
  logger.warn({ code: error.code }, 'sign-in identity refused');
  page(res, 403, TITLE[locale].refused, textOf(locale, error), error.code);
}

function textOf(locale: PageLocale, error: IdentityError): string {
  const texts = IDENTITY_REFUSED[locale];
  const { code, mismatch } = error;
  if (code !== 'identity_mismatch') return texts[code];
  if (mismatch === undefined) return texts.identity_failed;
  return texts.identity_mismatch(who(mismatch.owner, mismatch.you), who(mismatch.you, mismatch.owner));
}

/** The owner checked: on to the authorization server's page, the browser marked as the owner's for `state`. */
async function check(req: IncomingMessage, res: ServerResponse, deps: IdentityPageDeps): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://bot').searchParams;
  const state = query.get('state') ?? '';
  const { browsers, slack } = deps.identity;
  const start = await deps.connections.start(state);
  const callback = callbackOf(start.authorizationUrl);
  if (callback === undefined)
    throw new SignInError('state_invalid', start.server, 'the authorization page names no callback');
  const browser = browsers.browserOf(req, callback);
  if (browser === undefined) throw new IdentityError('identity_unbound', 'no browser cookie');
  const code = query.get('code');
  if (query.get('error') !== null || code === null)
    throw new IdentityError('identity_denied', `Slack answered ${query.get('error') ?? 'no code'}`);
  const you = await slack.identify(code, identityUrlOf(callback), browsers.nonceFor(browser, state));
  const { person } = start;
  // A one-workspace deployment names people without their team: theirs is the bot token's.
  const owner = person.teamId === '' ? { ...person, teamId: await deps.identity.homeTeam() } : person;
  if (you.userId !== owner.userId || you.teamId !== owner.teamId)
    throw new IdentityError('identity_mismatch', 'another Slack account than the link owner signed in', {
      mismatch: { owner, you },
    });
  res.writeHead(302, {
    location: start.authorizationUrl.href,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'set-cookie': browsers.verifiedCookie(state, callback),
  });
  res.end();
}

/** The page of `failing`'s refusal (IdentityError, SignInError), else a 500 page logged as `what` failing. */
function refusing(
  failing: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  what: string,
  logger: SignInCallbackDeps['logger'],
): RequestListener {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const locale = localeOf(req);
    try {
      await failing(req, res);
    } catch (error) {
      if (error instanceof IdentityError) return refuseIdentity(res, locale, error, logger);
      if (error instanceof SignInError) return refuse(res, locale, error, logger);
      logger.error({ err: error }, `${what} failed`);
      page(res, 500, TITLE[locale].refused, REFUSED[locale].other);
    }
  };
  return (req, res) => void handle(req, res).catch(() => res.destroy());
}

/** The route's handler, for the bot's HTTP server (GET IDENTITY_PATH). */
export function signInIdentity(deps: IdentityPageDeps): RequestListener {
  return refusing((req, res) => check(req, res, deps), 'sign-in identity page', deps.logger);
}

/**
 * The MCP sign-in's callback (sign-in-callback.ts) behind the identity check: a browser without the verified
 * cookie of the callback's `state` is refused before the state is consumed, so it stays unspent (its owner can
 * still use it). The state is read first (not spent) for the pages' URL, which names the cookie (sign-in-browser.ts);
 * a state that cannot be read gets the callback's refusal. A callback without a state goes on to the callback's own
 * refusal.
 */
export function verifiedOnly(deps: IdentityPageDeps, callback: RequestListener): RequestListener {
  const { identity, connections, logger } = deps;
  const verified = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const state = new URL(req.url ?? '/', 'http://bot').searchParams.get('state') ?? '';
    if (state === '') return callback(req, res);
    const pages = callbackOf((await connections.start(state)).authorizationUrl);
    if (pages !== undefined && identity.browsers.isVerified(req, state, pages)) return callback(req, res);
    throw new IdentityError('identity_unverified', 'no Slack identity check in this browser');
  };
  return refusing(verified, 'sign-in callback', logger);
}
