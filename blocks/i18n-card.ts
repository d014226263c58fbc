// UI text of the question's card (the request, its reminder and its end) in English and Chinese; see i18n.ts.
// Strings that embed server text take it already escaped for mrkdwn.
import type { EndReason } from '../src/relay/types.js';
import type { Count, Locale } from './i18n.js';

/** The card of a question: what asks, who asked, until when, and how it ended. */
export interface CardText {
  needsInput: (server: string) => string;
  /** Nudge in the card's thread before the deadline. */
  reminder: (server: string) => string;
  answerBy: (date: string) => string;
  /** Who may answer a question that names them: "Only <@U1> or members of <!subteam^S1> can answer". */
  onlyThey: (who: string) => string;
  /** The card of someone who may not answer, naming who may: "Waiting for an answer from <@U1>". */
  waitingFor: (who: string) => string;
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
  ended: Record<EndReason, string>;
  byPerson: (status: string, mention: string) => string;
  /** An API question its automation withdrew (`who` is `automation(name)`). */
  withdrawnBy: (who: string) => string;
}

export const CARD_TEXT: Record<Locale, CardText> = {
  en: {
    needsInput: (server) => `${server} needs your input`,
    onlyThey: (who) => `Only ${who} can answer`,
    waitingFor: (who) => `Waiting for an answer from ${who}`,
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
  },
  'zh-CN': {
    needsInput: (server) => `${server} 需要你的输入`,
    onlyThey: (who) => `仅 ${who} 可以回答`,
    waitingFor: (who) => `正在等待 ${who} 回答`,
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
  },
};
