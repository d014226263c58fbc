// UI text of the form engine in English and Chinese. One table per language with the same keys; the caller
// picks the language (usually from the person's Slack locale) and English is the fallback.
// Strings that embed server text take it already escaped for mrkdwn.
import type { EndReason } from '../src/relay/types.js';

export type Locale = 'en' | 'zh-CN';

/** The locale for a Slack user's `locale` (e.g. "zh-CN", "zh-TW", "en-US"); English for anything else. */
export function localeOf(slackLocale?: string): Locale {
  return slackLocale !== undefined && /^zh(?:[-_]|$)/i.test(slackLocale) ? 'zh-CN' : 'en';
}

type Count = (n: number) => string;

/**
 * An ended question's status: a URL question's own words for a link opened, or given up on. A URL card has no
 * form to close, so its 'closed' (the contract's reason for a cancel by the person's own act) is its Cancel.
 */
export function endedLabel(t: UiText, reason: EndReason, mode?: 'form' | 'url'): string {
  if (mode === 'url' && reason === 'answered') return t.linkOpened;
  if (mode === 'url' && reason === 'closed') return t.linkCancelled;
  return t.ended[reason];
}

export interface UiText {
  needsInput: (server: string) => string;
  /** Nudge in the card's thread before the deadline. */
  reminder: (server: string) => string;
  answerBy: (date: string) => string;
  /** Slack date token format of the deadline. */
  dateFormat: string;
  respond: string;
  decline: string;
  /** The server's own name and version under the card's headline. */
  serverVersion: (server: string) => string;
  requestedBy: (who: string) => string;
  /** A requester that is not a person. */
  automation: (name: string) => string;
  asked: (server: string) => string;
  /** An outcome and when it happened (a Slack date token). */
  endedAt: (status: string, date: string) => string;
  /** The card of an answered question when the server's policy hides what was answered. */
  answerHidden: string;
  /** The line after a shortened list of answers. */
  andMore: Count;
  /** The review step before sending. */
  reviewTitle: string;
  reviewIntro: string;
  noAnswers: string;
  ended: Record<EndReason, string>;
  byPerson: (status: string, mention: string) => string;
  /** An API question its automation withdrew (`who` is `automation(name)`). */
  withdrawnBy: (who: string) => string;
  linkOpened: string;
  /** A URL question the person gave up on (a 2026 URL card's Cancel; stored as reason 'closed'). */
  linkCancelled: string;
  from: (server: string) => string;
  titleFallback: string;
  submit: string;
  next: string;
  cancel: string;
  back: string;
  page: (page: number, pages: number) => string;
  yes: string;
  no: string;
  chooseOption: string;
  chooseOptions: string;
  /** Placeholder of a select with too many options to list: the person types and the bot suggests. */
  typeToSearch: string;
  dateTimeGuidance: string;
  chooseExactly: Count;
  chooseBetween: (min: number, max: number) => string;
  chooseAtLeastHint: Count;
  chooseAtMostHint: Count;
  secretWarning: (fields: string) => string;
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
  /** Why a click or submit changed nothing. */
  refusals: {
    answered: string;
    declined: string;
    expired: string;
    stillOpen: string;
    /** A submit the bot could not store (Redis down or slow): shown on the form, which keeps what was typed. */
    notSaved: string;
    /** A click the bot could not record (Redis down or slow). */
    notRecorded: string;
    otherWorkspace: string;
    /** "This question is for <who>; only they can answer it." */
    notFor: (who: string) => string;
    membersOf: (group: string) => string;
    peopleIn: (channel: string) => string;
    /** Stands for the people a long list leaves out. */
    others: string;
    /** Joins names: "a, b or c". */
    list: (items: string[]) => string;
    /** Title and close button of the modal that replaces a form with nothing left to answer. */
    title: string;
    close: string;
  };
  errors: {
    required: string;
    minLength: Count;
    maxLength: Count;
    minimum: Count;
    maximum: Count;
    minItems: Count;
    maxItems: Count;
    email: string;
    uri: string;
    date: string;
    dateTime: string;
    pattern: string;
    enum: string;
    integer: string;
    number: string;
    yesNo: string;
    listed: string;
    invalid: string;
  };
}

const en: UiText = {
  needsInput: (server) => `${server} needs your input`,
  reminder: (server) => `Reminder: ${server} is still waiting for your answer.`,
  answerBy: (date) => `Answer by ${date}`,
  dateFormat: '{date_short_pretty} at {time}',
  respond: 'Respond',
  decline: 'Decline',
  serverVersion: (server) => `Server: ${server}`,
  requestedBy: (who) => `Requested by ${who}`,
  automation: (name) => `an automation (${name})`,
  asked: (server) => `${server} asked`,
  endedAt: (status, date) => `${status} · ${date}`,
  answerHidden: 'The answer is not shown here (server policy).',
  andMore: (n) => `…and ${n} more`,
  reviewTitle: 'Review your answers',
  reviewIntro: 'Check your answers before sending. *Back* returns to the form to change them.',
  noAnswers: '(nothing filled in)',
  ended: {
    answered: 'Answered',
    declined: 'Declined',
    closed: 'Closed without answering',
    timed_out: 'Expired: no answer in time',
    withdrawn: 'Withdrawn by the server',
    call_ended: 'Cancelled: the tool call that asked has ended',
    holder_lost: 'Cancelled: the connection to the server was lost',
    delivery_failed: 'Cancelled: the request could not be delivered',
  },
  byPerson: (status, mention) => `${status} by ${mention}`,
  withdrawnBy: (who) => `Withdrawn by ${who}`,
  linkOpened: 'Link opened',
  linkCancelled: 'Cancelled',
  from: (server) => `From ${server}`,
  titleFallback: 'Request',
  submit: 'Send',
  next: 'Next',
  cancel: 'Cancel',
  back: 'Back',
  page: (page, pages) => `Page ${page} of ${pages}`,
  yes: 'Yes',
  no: 'No',
  chooseOption: 'Choose an option',
  chooseOptions: 'Choose options',
  typeToSearch: 'Type to search',
  dateTimeGuidance: 'Pick the time in your own time zone; it is sent as UTC.',
  chooseExactly: (n) => `Choose ${n}.`,
  chooseBetween: (min, max) => `Choose ${min} to ${max}.`,
  chooseAtLeastHint: (n) => `Choose at least ${n}.`,
  chooseAtMostHint: (n) => `Choose at most ${n}.`,
  secretWarning: (fields) =>
    `:warning: *This form asks for something that looks secret: ${fields}.* MCP servers must not ask for ` +
    'passwords, tokens, keys or card numbers in a form. Leave these empty or decline unless you are sure.',
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
  refusals: {
    answered: 'This question has already been answered.',
    declined: 'This question has already been declined.',
    expired: 'This question has expired or was withdrawn; there is nothing left to answer.',
    stillOpen: 'This question is still open.',
    notSaved: 'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.',
    notRecorded: 'That was NOT recorded (a temporary problem on our side). Please try again in a moment.',
    otherWorkspace: 'This question was asked in another workspace or app; it cannot be answered from here.',
    notFor: (who) => `This question is for ${who}; only they can answer it.`,
    membersOf: (group) => `members of ${group}`,
    peopleIn: (channel) => `people in ${channel}`,
    others: 'others',
    list: (items) =>
      items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`,
    title: 'Nothing to answer',
    close: 'Close',
  },
  errors: {
    required: 'This field is required',
    minLength: (n) => `Must be at least ${n} ${n === 1 ? 'character' : 'characters'}`,
    maxLength: (n) => `Must be at most ${n} ${n === 1 ? 'character' : 'characters'}`,
    minimum: (n) => `Must be at least ${n}`,
    maximum: (n) => `Must be at most ${n}`,
    minItems: (n) => `Choose at least ${n}`,
    maxItems: (n) => `Choose at most ${n}`,
    email: 'Enter a valid email address',
    uri: 'Enter a valid URL, like https://example.com',
    date: 'Enter a valid date',
    dateTime: 'Enter a valid date and time',
    pattern: 'Does not match the expected format',
    enum: 'Choose one of the options',
    integer: 'Enter a whole number',
    number: 'Enter a number',
    yesNo: 'Choose Yes or No',
    listed: 'Choose from the listed options',
    invalid: 'Enter a valid value',
  },
};

const zhCN: UiText = {
  needsInput: (server) => `${server} 需要你的输入`,
  reminder: (server) => `提醒：${server} 仍在等待你的回答。`,
  answerBy: (date) => `请在 ${date} 前回答`,
  dateFormat: '{date_short_pretty} {time}',
  respond: '回答',
  decline: '拒绝',
  serverVersion: (server) => `服务器：${server}`,
  requestedBy: (who) => `发起人：${who}`,
  automation: (name) => `自动化任务（${name}）`,
  asked: (server) => `${server} 提出了请求`,
  endedAt: (status, date) => `${status} · ${date}`,
  answerHidden: '根据服务器策略，此处不显示回答内容。',
  andMore: (n) => `……还有 ${n} 项`,
  reviewTitle: '确认你的回答',
  reviewIntro: '发送前请检查你的回答。点击*上一页*可返回表单修改。',
  noAnswers: '（未填写任何内容）',
  ended: {
    answered: '已回答',
    declined: '已拒绝',
    closed: '未回答即关闭',
    timed_out: '已过期：未在时限内回答',
    withdrawn: '服务器已撤回',
    call_ended: '已取消：发起请求的工具调用已结束',
    holder_lost: '已取消：与服务器的连接已断开',
    delivery_failed: '已取消：请求无法送达',
  },
  byPerson: (status, mention) => `${mention} ${status}`,
  withdrawnBy: (who) => `已由${who}撤回`,
  linkOpened: '已打开链接',
  linkCancelled: '已取消',
  from: (server) => `来自 ${server}`,
  titleFallback: '请求',
  submit: '发送',
  next: '下一页',
  cancel: '取消',
  back: '上一页',
  page: (page, pages) => `第 ${page} 页，共 ${pages} 页`,
  yes: '是',
  no: '否',
  chooseOption: '请选择一项',
  chooseOptions: '请选择',
  typeToSearch: '输入以搜索',
  dateTimeGuidance: '请按你所在的时区选择时间；发送时会转换为 UTC。',
  chooseExactly: (n) => `请选择 ${n} 项。`,
  chooseBetween: (min, max) => `请选择 ${min} 到 ${max} 项。`,
  chooseAtLeastHint: (n) => `请至少选择 ${n} 项。`,
  chooseAtMostHint: (n) => `最多选择 ${n} 项。`,
  secretWarning: (fields) =>
    `:warning: *此表单要求填写看似机密的信息：${fields}。* MCP 服务器不得在表单中索取密码、令牌、密钥或卡号。` +
    '除非你确定无误，否则请留空或拒绝。',
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
  refusals: {
    answered: '此问题已有人回答。',
    declined: '此问题已被拒绝。',
    expired: '此问题已过期或已被撤回，无需再回答。',
    stillOpen: '此问题仍在等待回答。',
    notSaved: '您的回答未能保存（我们这边出现临时问题）。请稍后再次点击发送。',
    notRecorded: '此操作未能记录（我们这边出现临时问题）。请稍后重试。',
    otherWorkspace: '此问题来自另一个工作区或应用，无法在此回答。',
    notFor: (who) => `此问题只能由 ${who} 回答。`,
    membersOf: (group) => `${group} 的成员`,
    peopleIn: (channel) => `${channel} 中的成员`,
    others: '其他人',
    list: (items) =>
      items.length < 2 ? items.join('') : `${items.slice(0, -1).join('、')}或${items.at(-1) ?? ''}`,
    title: '无需回答',
    close: '关闭',
  },
  errors: {
    required: '此项为必填项',
    minLength: (n) => `必须至少为 ${n} 个字符`,
    maxLength: (n) => `最多 ${n} 个字符`,
    minimum: (n) => `必须至少为 ${n}`,
    maximum: (n) => `必须最多为 ${n}`,
    minItems: (n) => `请至少选择 ${n} 项`,
    maxItems: (n) => `最多选择 ${n} 项`,
    email: '请输入有效的电子邮件地址',
    uri: '请输入有效的网址，例如 https://example.com',
    date: '请输入有效的日期',
    dateTime: '请输入有效的日期和时间',
    pattern: '格式不符合要求',
    enum: '请选择其中一个选项',
    integer: '请输入整数',
    number: '请输入数字',
    yesNo: '请选择“是”或“否”',
    listed: '请从列出的选项中选择',
    invalid: '请输入有效的值',
  },
};

/** Both tables, exported so a test can check that they have the same keys. */
export const UI_TEXT: Record<Locale, UiText> = { en, 'zh-CN': zhCN };

/** The table for `locale`; English for undefined or anything unknown. */
export function uiText(locale?: Locale): UiText {
  return locale === 'zh-CN' ? zhCN : en;
}
