// UI text of a URL-mode question's card (the link, its warnings and its end) in English and Chinese; see i18n.ts.
// Strings that embed server text take it already escaped for mrkdwn.
import type { Locale } from './i18n.js';

/** A URL-mode question's card: the link to open, what to beware of, and how it ended. */
export interface UrlText {
  linkOpened: string;
  /** A URL question the person gave up on (a 2026 URL card's Cancel; stored as reason 'closed'). */
  linkCancelled: string;
  urlAsks: (server: string) => string;
  urlNotification: (server: string, host: string) => string;
  urlHost: (host: string) => string;
  urlPunycode: (unicodeHost: string) => string;
  urlNotHttps: string;
  urlUserInfo: string;
  /** The server said the step behind the link is done (notifications/elicitation/complete). */
  urlCompleted: (server: string) => string;
  openLink: string;
  /** A 2026 server asked for the same link again: its step is not done yet (Retry and Cancel follow). */
  urlAgain: (server: string) => string;
  urlRetry: string;
  urlCancel: string;
  /** A 2026 URL request's first card: what its Cancel does. */
  urlCancelHint: string;
}

export const URL_TEXT: Record<Locale, UrlText> = {
  en: {
    linkOpened: 'Link opened',
    linkCancelled: 'Cancelled',
    urlAsks: (server) => `${server} asks you to open a link`,
    urlNotification: (server, host) => `${server} asks you to open a link on ${host}`,
    urlHost: (host) => `Site: ${host}`,
    urlPunycode: (unicodeHost) =>
      `:warning: The site name is internationalized (punycode; shown as ${unicodeHost}) and may imitate another site.`,
    urlNotHttps: ':warning: This link is not HTTPS: what you send there can be read or changed on the way.',
    urlUserInfo: ':warning: This link has a user name before the site name, a trick to hide the real site.',
    urlCompleted: (server) => `Done: ${server} says the step behind the link is complete`,
    openLink: 'Open link',
    urlAgain: (server) =>
      `${server} says the step behind the link is not done yet. Finish it there, then press Retry; Cancel ends the call.`,
    urlRetry: 'Retry',
    urlCancel: 'Cancel',
    urlCancelHint: 'Cancel stops the call that asks for this link.',
  },
  'zh-CN': {
    linkOpened: '已打开链接',
    linkCancelled: '已取消',
    urlAsks: (server) => `${server} 请你打开一个链接`,
    urlNotification: (server, host) => `${server} 请你打开 ${host} 上的链接`,
    urlHost: (host) => `网站：${host}`,
    urlPunycode: (unicodeHost) =>
      `:warning: 该网站名为国际化域名（punycode，显示为 ${unicodeHost}），可能在冒充其他网站。`,
    urlNotHttps: ':warning: 此链接不是 HTTPS：你发送的内容可能在传输中被读取或篡改。',
    urlUserInfo: ':warning: 此链接在网站名之前带有用户名，这是隐藏真实网站的常见手法。',
    urlCompleted: (server) => `已完成：${server} 确认链接中的步骤已完成`,
    openLink: '打开链接',
    urlAgain: (server) =>
      `${server} 表示链接中的步骤尚未完成。请在那里完成后点击“重试”；“取消”会结束此次调用。`,
    urlRetry: '重试',
    urlCancel: '取消',
    urlCancelHint: '“取消”会结束请求此链接的调用。',
  },
};
