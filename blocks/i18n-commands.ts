// UI text of the App Home inbox, `/mcp` and tool results, in English and Chinese (same keys per language).
// Kept apart from i18n.ts (the card and form texts) so each surface's strings live with its owner.
// Strings that embed server text take it already escaped for mrkdwn.
import type { Locale } from './i18n.js';

export interface CommandText {
  homeHeader: string;
  homeIntro: string;
  homeNothing: string;
  homeMore: (n: number) => string;
  homeRecentHeader: string;
  homeNoRecent: string;
}

const en: CommandText = {
  homeHeader: 'Waiting for your answer',
  homeIntro: 'Questions MCP servers are waiting for you to answer, soonest deadline first.',
  homeNothing: 'Nothing is waiting for you.',
  homeMore: (n) => `…and ${n} more, shown here once you answer some of the above.`,
  homeRecentHeader: 'Your recent answers',
  homeNoRecent: 'No answers yet.',
};

const zh: CommandText = {
  homeHeader: '等待你回答的问题',
  homeIntro: 'MCP 服务器正在等待你回答的问题，截止时间最早的在前。',
  homeNothing: '目前没有等待你回答的问题。',
  homeMore: (n) => `……还有 ${n} 个问题，回答上面的问题后会显示在这里。`,
  homeRecentHeader: '你最近的回答',
  homeNoRecent: '还没有回答。',
};

/** The table for `locale`; English when absent. */
export function commandText(locale?: Locale): CommandText {
  return locale === 'zh-CN' ? zh : en;
}
