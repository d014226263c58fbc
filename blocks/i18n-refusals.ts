// UI text of the replies to a click or submit that changed nothing, in English and Chinese; see i18n.ts.
// Strings that embed server text take it already escaped for mrkdwn.
import type { Locale } from './i18n.js';

/** Why a click or submit changed nothing. */
export interface RefusalText {
  answered: string;
  declined: string;
  /** The same, naming who answered or declined it (a mention), for everyone else who tries. */
  answeredBy: (who: string) => string;
  declinedBy: (who: string) => string;
  expired: string;
  /** The replica that held the asking call stopped for good: the answer could reach nobody. */
  holderLost: string;
  stillOpen: string;
  /**
   * A submit the bot could not store (Redis down, slow, or out of memory and refusing the write): shown on the
   * form, which keeps what was typed.
   */
  notSaved: string;
  /** A click the bot could not record (Redis down, slow, or out of memory and refusing the write). */
  notRecorded: string;
  /** A submit whose write went to Redis without its result coming back in time: it may have been saved. */
  maybeNotSaved: string;
  /** A click whose write went to Redis without its result coming back in time: it may have been recorded. */
  maybeNotRecorded: string;
  otherWorkspace: string;
  /**
   * An act on a question for anyone in `channel` (a mention) that the bot cannot check, now or later: Slack no
   * longer lists the channel's members (deleted, archived, or the bot removed); `then`: one of the next two.
   */
  channelUnchecked: (channel: string, then: string) => string;
  /** Who can still answer it: the people it names (`who`, a list), each from their App Home. */
  onlyNamedCanAnswer: (who: string) => string;
  /** It names nobody: nobody can answer it any more. */
  nobodyCanAnswer: string;
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
}

export const REFUSAL_TEXT: Record<Locale, RefusalText> = {
  en: {
    answered: 'This question has already been answered.',
    declined: 'This question has already been declined.',
    answeredBy: (who) => `This question has already been answered by ${who}.`,
    declinedBy: (who) => `This question has already been declined by ${who}.`,
    expired: 'This question has expired or was withdrawn; there is nothing left to answer.',
    holderLost:
      'Your answer could not be delivered: the app lost the connection that was waiting for it, so this question has ended. Ask for the task again if it is still needed.',
    stillOpen: 'This question is still open.',
    notSaved: 'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.',
    notRecorded: 'That was NOT recorded (a temporary problem on our side). Please try again in a moment.',
    maybeNotSaved:
      'Your answer may not have been saved (a temporary problem on our side). Press Send again in a moment: it is saved once, or you are told it already was.',
    maybeNotRecorded:
      'That may not have been recorded (a temporary problem on our side). Please try again in a moment: it counts once, or you are told it already did.',
    otherWorkspace: 'This question was asked in another workspace or app; it cannot be answered from here.',
    channelUnchecked: (channel, then) =>
      `That was NOT recorded, and trying again will not help: this app can no longer check who is in ${channel} (the channel was archived or deleted, or the app was removed from it). ${then}`,
    onlyNamedCanAnswer: (who) => `Only ${who} can still answer it, from the app's Home tab.`,
    nobodyCanAnswer:
      'Nobody can answer it any more; it stays open until its time runs out or it is withdrawn. Ask whoever needs the answer to ask again somewhere this app can reach.',
    notFor: (who) => `This question is for ${who}; only they can answer it.`,
    membersOf: (group) => `members of ${group}`,
    peopleIn: (channel) => `people in ${channel}`,
    others: 'others',
    list: (items) =>
      items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`,
    title: 'Nothing to answer',
    close: 'Close',
  },
  'zh-CN': {
    answered: '此问题已有人回答。',
    declined: '此问题已被拒绝。',
    answeredBy: (who) => `此问题已由 ${who} 回答。`,
    declinedBy: (who) => `此问题已被 ${who} 拒绝。`,
    expired: '此问题已过期或已被撤回，无需再回答。',
    holderLost: '您的回答无法送达：应用与等待该回答的连接已断开，此问题已结束。如仍需要，请重新发起该任务。',
    stillOpen: '此问题仍在等待回答。',
    notSaved: '您的回答未能保存（我们这边出现临时问题）。请稍后再次点击发送。',
    notRecorded: '此操作未能记录（我们这边出现临时问题）。请稍后重试。',
    maybeNotSaved:
      '您的回答可能未能保存（我们这边出现临时问题）。请稍后再次点击发送：回答只会保存一次，若已保存会告知您。',
    maybeNotRecorded:
      '此操作可能未能记录（我们这边出现临时问题）。请稍后重试：操作只会记录一次，若已记录会告知您。',
    otherWorkspace: '此问题来自另一个工作区或应用，无法在此回答。',
    channelUnchecked: (channel, then) =>
      `此操作未能记录，重试也无济于事：本应用已无法查看 ${channel} 的成员（该频道已归档或删除，或本应用已被移出该频道）。${then}`,
    onlyNamedCanAnswer: (who) => `现在只有 ${who} 还能在本应用的“主页”标签中回答。`,
    nobodyCanAnswer:
      '现在已无人能回答此问题；它会保持待回答状态，直到超时或被撤回。请让需要答案的人在本应用能访问的地方重新提问。',
    notFor: (who) => `此问题只能由 ${who} 回答。`,
    membersOf: (group) => `${group} 的成员`,
    peopleIn: (channel) => `${channel} 中的成员`,
    others: '其他人',
    list: (items) =>
      items.length < 2 ? items.join('') : `${items.slice(0, -1).join('、')}或${items.at(-1) ?? ''}`,
    title: '无需回答',
    close: '关闭',
  },
};
