// Signing in to MCP servers that need it (issue #20), as Slack shows it: the private Connect message (the
// server, the scopes, a button to the authorization server's page), the same message once connected, and the
// App Home's list of connections with Disconnect buttons. Texts in English and Chinese. Pure: nothing here
// holds or shows a token.
import type { Button, KnownBlock } from '@slack/types';
import type { SlackMessage } from './card.js';
import { serverName } from './card.js';
import type { Locale } from './i18n.js';
import { BUTTON_TEXT_MAX, HEADER_TEXT_MAX } from './slack-limits.js';
import { escapeMrkdwn, mrkdwnChunks, mrkdwnContext, plain, section } from './text.js';

export const DISCONNECT_ACTION = 'mcp_disconnect';
/** The Connect button only opens a link; its click is acked and nothing else. */
export const CONNECT_ACTION = 'mcp_connect';
/**
 * Blocks for the connections in the App Home: one each, or, when there are more, one fewer and a line naming the
 * rest. With their divider and header, and the inbox at its fullest (90 blocks, home.ts), the Home stays inside
 * Slack's 100 blocks.
 */
export const HOME_CONNECTIONS_MAX = 8;
/**
 * UTF-16 units of the server names on the line naming the connections not listed (a context text holds 3000;
 * the words around them take under 200 in either language). Names past it are left out, the count stays whole.
 */
const MORE_NAMES_MAX = 2000;

export type SignInReason = 'first' | 'expired' | 'revoked' | 'step_up';
/** Why a Connect message's sign-in connected nothing: the person refused, or the sign-in failed after that. */
export type SignInRefusal = 'denied' | 'failed';

export interface SignInPromptInput {
  server: string;
  scopes: string[];
  reason: SignInReason;
  /** What the Connect button opens: the bot's start page for the sign-in, which leads to the authorization page. */
  authorizationUrl: string;
  /** Set when the sign-in is to the company IdP (its issuer URL) for an enterprise-managed server. */
  idp?: string;
}

export interface HomeConnection {
  server: string;
  scopes: string[];
  /** Epoch ms; absent when the server did not say. */
  expiresAt?: number;
}

export interface SignInText {
  why: Record<SignInReason, (server: string) => string>;
  scopes: (scopes: string) => string;
  noScopes: string;
  /** An enterprise-managed server: the sign-in is to the company IdP, once for all such servers. */
  idp: (idp: string) => string;
  connect: string;
  connected: (server: string) => string;
  /** A Connect message whose link's 10 minutes ran out: `server` as shown, `command` the `/mcp connect` for it. */
  linkExpired: (server: string, command: string) => string;
  /** A Connect message whose sign-in was refused at the sign-in page, or whose code the server refused. */
  refused: Record<SignInRefusal, (server: string, command: string) => string>;
  connectionsHeader: string;
  noConnections: string;
  /** The Home's line for the connections past its list: how many, the names that fit, and how to forget one. */
  moreConnections: (count: number, names: string) => string;
  expires: (when: string) => string;
  noExpiry: string;
  disconnect: string;
  /** `/mcp connect` and `/mcp disconnect` replies. */
  connectSent: (server: string) => string;
  disconnected: (server: string) => string;
  wasNotConnected: (server: string) => string;
  notOAuthServer: (server: string) => string;
  /** The server's sign-in could not be found or reached (its authorization server, or the company IdP). */
  connectUnreachable: (server: string) => string;
  /** Any other reason the sign-in could not go on, named by its code. */
  connectFailed: (server: string, code: string) => string;
  connectNeedsServer: string;
}

const en: SignInText = {
  why: {
    first: (s) => `${s} needs you to sign in before the bot can call it as you.`,
    expired: (s) => `Your sign-in to ${s} has expired. Connect again to go on.`,
    revoked: (s) => `Your access to ${s} was revoked. Connect again to go on.`,
    step_up: (s) => `${s} needs more access for this call.`,
  },
  scopes: (scopes) => `Access asked for: ${scopes}`,
  noScopes: 'Access asked for: what the server grants by default',
  idp: (idp) => `You sign in to your company's identity provider, ${idp}, once for every server it manages.`,
  connect: 'Connect',
  connected: (s) => `:white_check_mark: Connected to ${s}. Calls waiting for it go on now.`,
  linkExpired: (s, c) =>
    `:hourglass: This link to connect ${s} expired (a link lasts 10 minutes). Run your command again, or ${c}, for a new one.`,
  refused: {
    denied: (s, c) =>
      `:no_entry_sign: Access to ${s} was not granted at its sign-in page, so nothing was connected. To try again, run your command again or ${c}.`,
    failed: (s, c) =>
      `:warning: Signing in to ${s} did not complete: its sign-in service refused it, so nothing was connected. To try again, run your command again or ${c}.`,
  },
  connectionsHeader: 'Your connections',
  noConnections: 'You are not connected to any server that needs sign-in.',
  moreConnections: (n, names) =>
    `…and ${n} more: ${names}. To forget one, use \`/mcp disconnect &lt;server&gt;\`.`,
  expires: (when) => `access renews ${when}`,
  noExpiry: 'no expiry given',
  disconnect: 'Disconnect',
  connectSent: (s) => `I sent you a private message with a Connect button for ${s}.`,
  disconnected: (s) => `Disconnected from ${s}: the bot no longer holds your access to it.`,
  wasNotConnected: (s) => `You were not connected to ${s}.`,
  notOAuthServer: (s) => `${s} does not need sign-in.`,
  connectUnreachable: (s) =>
    `Could not start signing in to ${s}: its sign-in service could not be reached or did not answer as expected. Try again later; if it keeps failing, tell whoever runs the bot.`,
  connectFailed: (s, code) => `Signing in to ${s} could not go on (${code}). Try again later.`,
  connectNeedsServer: 'Name the server: `/mcp connect <server>` or `/mcp disconnect <server>`.',
};

const zhCN: SignInText = {
  why: {
    first: (s) => `${s} 需要你先登录，机器人才能以你的身份调用它。`,
    expired: (s) => `你在 ${s} 的登录已过期。请重新连接以继续。`,
    revoked: (s) => `你对 ${s} 的访问权限已被撤销。请重新连接以继续。`,
    step_up: (s) => `${s} 需要更多权限才能完成此调用。`,
  },
  scopes: (scopes) => `请求的权限：${scopes}`,
  noScopes: '请求的权限：服务器默认授予的权限',
  idp: (idp) => `你只需登录一次公司的身份提供方 ${idp}，即可使用它管理的所有服务器。`,
  connect: '连接',
  connected: (s) => `:white_check_mark: 已连接到 ${s}。等待它的调用现在继续。`,
  linkExpired: (s, c) =>
    `:hourglass: 此用于连接 ${s} 的链接已过期（链接有效期为 10 分钟）。请重新运行你的命令，或运行 ${c}，获取新链接。`,
  refused: {
    denied: (s, c) =>
      `:no_entry_sign: 登录页面未授予对 ${s} 的访问权限，因此未连接任何内容。要重试，请重新运行你的命令或运行 ${c}。`,
    failed: (s, c) =>
      `:warning: 登录 ${s} 未完成：它的登录服务拒绝了此次登录，因此未连接任何内容。要重试，请重新运行你的命令或运行 ${c}。`,
  },
  connectionsHeader: '你的连接',
  noConnections: '你尚未连接任何需要登录的服务器。',
  moreConnections: (n, names) =>
    `……还有 ${n} 个连接：${names}。要断开其中一个，请使用 \`/mcp disconnect &lt;服务器&gt;\`。`,
  expires: (when) => `访问将于 ${when} 续期`,
  noExpiry: '未给出过期时间',
  disconnect: '断开连接',
  connectSent: (s) => `我已私信你一个用于 ${s} 的连接按钮。`,
  disconnected: (s) => `已断开与 ${s} 的连接：机器人不再保留你对它的访问权限。`,
  wasNotConnected: (s) => `你没有连接到 ${s}。`,
  notOAuthServer: (s) => `${s} 不需要登录。`,
  connectUnreachable: (s) =>
    `无法开始登录 ${s}：无法访问它的登录服务，或其响应不符合预期。请稍后重试；如果一直失败，请告知机器人的管理员。`,
  connectFailed: (s, code) => `无法继续登录 ${s}（${code}）。请稍后重试。`,
  connectNeedsServer: '请指定服务器：`/mcp connect <服务器>` 或 `/mcp disconnect <服务器>`。',
};

export const SIGN_IN_TEXT: Record<Locale, SignInText> = { en, 'zh-CN': zhCN };

export function signInText(locale?: Locale): SignInText {
  return locale === 'zh-CN' ? zhCN : en;
}

/**
 * UTF-16 units of the scope list, once escaped: the scopes are the server's text (its WWW-Authenticate or
 * metadata, the token response), and the list shares a 3000-unit text with the server's name and the expiry.
 */
const SCOPES_MAX = 1000;

/** The scopes as code, escaped and neutralised like all server text (a code span does not stop Slack's `<…>`). */
function scopeList(scopes: string[], t: SignInText): string {
  if (scopes.length === 0) return t.noScopes;
  const named = scopes.map((s) => `\`${s.replace(/`/g, "'")}\``).join(', ');
  return t.scopes(mrkdwnChunks(named, SCOPES_MAX, 1)[0] ?? '');
}

/** The private message asking the person to connect: why, which scopes, and a Connect button to `authorizationUrl`. */
export function signInPrompt(input: SignInPromptInput, locale?: Locale): SlackMessage {
  const t = signInText(locale);
  const why = t.why[input.reason](`*${serverName(input.server)}*`);
  const connect: Button = {
    type: 'button',
    action_id: CONNECT_ACTION,
    text: plain(t.connect, BUTTON_TEXT_MAX),
    url: input.authorizationUrl,
    style: 'primary',
  };
  return {
    text: t.why[input.reason](serverName(input.server)),
    blocks: [
      section(why),
      ...(input.idp === undefined ? [] : [mrkdwnContext(t.idp(escapeMrkdwn(input.idp)))]),
      mrkdwnContext(scopeList(input.scopes, t)),
      { type: 'actions', elements: [connect] },
    ],
  };
}

/** The Connect message once the sign-in completed: no button left to click. */
export function signInDone(server: string, locale?: Locale): SlackMessage {
  const text = signInText(locale).connected(`*${serverName(server)}*`);
  return { text: signInText(locale).connected(serverName(server)), blocks: [section(text)] };
}

/** A Connect message whose link expired: no button left, and how to get a new link. */
export function signInExpired(server: string, locale?: Locale): SlackMessage {
  return buttonless(server, locale, (t) => t.linkExpired);
}

/** A Connect message whose sign-in connected nothing (`why`): no button left, and how to try again. */
export function signInRefused(server: string, why: SignInRefusal, locale?: Locale): SlackMessage {
  return buttonless(server, locale, (t) => t.refused[why]);
}

/** A Connect message turned into one section of `wording`, with the `/mcp connect` that gives a new link. */
function buttonless(
  server: string,
  locale: Locale | undefined,
  wording: (t: SignInText) => (server: string, command: string) => string,
): SlackMessage {
  const say = wording(signInText(locale));
  // A code span keeps the name as typed; a backtick in it would end the span early.
  const command = `\`/mcp connect ${serverName(server).replace(/`/g, "'")}\``;
  return {
    text: say(serverName(server), command),
    blocks: [section(say(`*${serverName(server)}*`, command))],
  };
}

/**
 * The App Home's section listing the person's connections, each with a Disconnect button; past
 * HOME_CONNECTIONS_MAX, the last row's place names the others, which `/mcp disconnect` forgets.
 */
export function connectionBlocks(connections: HomeConnection[], locale?: Locale): KnownBlock[] {
  const t = signInText(locale);
  const listed = connections.length > HOME_CONNECTIONS_MAX ? HOME_CONNECTIONS_MAX - 1 : connections.length;
  const rest = connections.slice(listed);
  const rows = connections.slice(0, listed).map((c, i): KnownBlock => {
    const expiry = c.expiresAt === undefined ? t.noExpiry : t.expires(slackDate(c.expiresAt));
    return {
      type: 'section',
      block_id: `home_conn${i}`,
      text: { type: 'mrkdwn', text: `*${serverName(c.server)}*\n${scopeList(c.scopes, t)} · ${expiry}` },
      accessory: {
        type: 'button',
        action_id: DISCONNECT_ACTION,
        text: plain(t.disconnect, BUTTON_TEXT_MAX),
        value: c.server,
        style: 'danger',
      },
    };
  });
  return [
    { type: 'divider' },
    { type: 'header', text: plain(t.connectionsHeader, HEADER_TEXT_MAX) },
    ...(rows.length > 0 ? rows : [mrkdwnContext(t.noConnections)]),
    ...(rest.length > 0 ? [mrkdwnContext(t.moreConnections(rest.length, namesWithin(rest)))] : []),
  ];
}

/** The connections' server names, bold, as many as MORE_NAMES_MAX holds, then "…" for the others. */
function namesWithin(connections: HomeConnection[]): string {
  const names: string[] = [];
  let size = 0;
  for (const { server } of connections) {
    const name = `*${serverName(server)}*`;
    // 2 for the ", " before it; 3 kept for ", …".
    if (size + name.length + 2 > MORE_NAMES_MAX - 3) return [...names, '…'].join(', ');
    names.push(name);
    size += name.length + 2;
  }
  return names.join(', ');
}

/** Slack's date formatting in the reader's own time zone, with a UTC fallback. */
function slackDate(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fallback = new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallback} UTC>`;
}
