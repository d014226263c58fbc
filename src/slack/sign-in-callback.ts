// GET ${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/callback: where the person's browser lands after the authorization
// server's page. Hands the query to Connections.complete (which checks and consumes `state`, exchanges the code
// and wakes the waiting call) and shows a small page: connected, or refused with the reason. The page is in
// Chinese when the browser prefers it. Nothing of the query but the server's name is echoed back.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { SignInRefusal } from '../../blocks/index.js';
import {
  SignInError,
  type CallbackParams,
  type Connections,
  type Person,
  type SignInErrorCode,
} from '../mcp/index.js';

export interface SignInCallbackDeps {
  connections: Pick<Connections, 'complete'>;
  /** Tells the person in Slack (their Connect message becomes "Connected"). */
  connected(server: string, person: Person): Promise<void>;
  /**
   * Tells the person in Slack that the link of `state` was refused (its Connect message says so); absent where
   * nobody is told (a page alone).
   */
  refused?(server: string, person: Person, state: string, why: SignInRefusal): Promise<void>;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type PageLocale = 'en' | 'zh-CN';

export const TITLE: Record<PageLocale, { ok: string; refused: string }> = {
  en: { ok: 'Connected', refused: 'Sign-in refused' },
  'zh-CN': { ok: '已连接', refused: '登录被拒绝' },
};

const CONNECTED: Record<PageLocale, (server: string) => string> = {
  en: (s) => `You are connected to ${s}. You can close this page and go back to Slack: your call goes on.`,
  'zh-CN': (s) => `你已连接到 ${s}。可以关闭此页面回到 Slack：你的调用会继续。`,
};

export const REFUSED: Record<PageLocale, Partial<Record<SignInErrorCode, string>> & { other: string }> = {
  en: {
    state_invalid: 'This sign-in link was not issued by this bot (it may be forged). Nothing was connected.',
    state_used:
      'This sign-in was already completed: the link cannot be used twice. Nothing more was connected.',
    state_spent:
      'This sign-in link can no longer be used. Run /mcp connect <server> in Slack for a new one. Nothing was connected.',
    state_expired: 'This sign-in link expired. Run /mcp connect <server> in Slack for a new one.',
    denied: 'Access was not granted at the sign-in page. Run /mcp connect <server> in Slack to try again.',
    token_exchange_failed:
      "The server's sign-in did not complete (the code was refused). Try again from Slack.",
    resource_mismatch: 'The server named a different resource than the one configured: refused.',
    client_forgotten:
      "The server's sign-in no longer knows the registration this link was made with. Run /mcp connect <server> in Slack for a new link.",
    other: 'Signing in failed. Try again from Slack with /mcp connect <server>.',
  },
  'zh-CN': {
    state_invalid: '此登录链接不是本机器人发出的（可能是伪造的）。未连接任何内容。',
    state_used: '此登录已完成：链接不能使用两次。未再连接任何内容。',
    state_spent:
      '此登录链接已无法再使用。请在 Slack 中运行 /mcp connect <服务器> 获取新链接。未连接任何内容。',
    state_expired: '此登录链接已过期。请在 Slack 中运行 /mcp connect <服务器> 获取新链接。',
    denied: '登录页面未授予访问权限。请在 Slack 中运行 /mcp connect <服务器> 重试。',
    token_exchange_failed: '服务器的登录未完成（授权码被拒绝）。请从 Slack 重试。',
    resource_mismatch: '服务器声明的资源与配置的不同：已拒绝。',
    client_forgotten:
      '服务器的登录已不认识此链接所用的注册。请在 Slack 中运行 /mcp connect <服务器> 获取新链接。',
    other: '登录失败。请在 Slack 中用 /mcp connect <服务器> 重试。',
  },
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function localeOf(req: IncomingMessage): PageLocale {
  return /^\s*zh\b/i.test(req.headers['accept-language'] ?? '') ? 'zh-CN' : 'en';
}

export function page(res: ServerResponse, status: number, title: string, text: string, code?: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page shows text only; nothing is loaded or run.
    'content-security-policy': "default-src 'none'",
    'referrer-policy': 'no-referrer',
  });
  const data = code === undefined ? '' : ` data-code="${escapeHtml(code)}"`;
  res.end(
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<h1>${escapeHtml(title)}</h1><p id="outcome"${data}>${escapeHtml(text)}</p>`,
  );
}

/** The callback's query as Connections.complete takes it; undefined when `state` is missing. */
function paramsOf(req: IncomingMessage): CallbackParams | undefined {
  const query = new URL(req.url ?? '/', 'http://bot').searchParams;
  const state = query.get('state');
  if (state === null || state === '') return undefined;
  const code = query.get('code');
  const error = query.get('error');
  // RFC 9207: the SDK checks `iss` against the authorization server's metadata.
  const iss = query.get('iss');
  return {
    state,
    ...(code === null ? {} : { code }),
    ...(error === null ? {} : { error }),
    ...(iss === null ? {} : { iss }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: SignInCallbackDeps): Promise<void> {
  const locale = localeOf(req);
  const refused = REFUSED[locale];
  const params = paramsOf(req);
  if (params === undefined)
    return page(res, 400, TITLE[locale].refused, refused.state_invalid ?? refused.other, 'state_invalid');
  try {
    const { server, person } = await deps.connections.complete(params);
    page(res, 200, TITLE[locale].ok, CONNECTED[locale](server));
    await deps.connected(server, person).catch((err: unknown) => {
      deps.logger.error({ err, server }, 'could not tell the person in Slack that the sign-in completed');
    });
  } catch (error) {
    if (!(error instanceof SignInError)) {
      deps.logger.error({ err: error }, 'sign-in callback failed');
      return page(res, 500, TITLE[locale].refused, refused.other);
    }
    refuse(res, locale, error, deps.logger);
    await tellRefused(deps, error, params.state);
  }
}

/** A refusal that spent the person's link (SignInError.person): their Connect message for it says so. */
async function tellRefused(deps: SignInCallbackDeps, error: SignInError, state: string): Promise<void> {
  const { person, server, code } = error;
  if (person === undefined || deps.refused === undefined) return;
  const why: SignInRefusal = code === 'denied' ? 'denied' : 'failed';
  await deps.refused(server, person, state, why).catch((err: unknown) => {
    deps.logger.error({ err, server }, 'could not tell the person in Slack that the sign-in was refused');
  });
}

/** The page of a sign-in refused with `error` (the callback, or the start page of a link no longer usable). */
export function refuse(
  res: ServerResponse,
  locale: PageLocale,
  error: SignInError,
  logger: SignInCallbackDeps['logger'],
): void {
  logger.warn({ code: error.code, server: error.server }, 'sign-in refused');
  page(res, 400, TITLE[locale].refused, REFUSED[locale][error.code] ?? REFUSED[locale].other, error.code);
}

/** The route's handler, for the bot's HTTP server (GET CALLBACK_PATH). */
export function signInCallback(deps: SignInCallbackDeps): RequestListener {
  return (req, res) => void handle(req, res, deps).catch(() => res.destroy());
}
