// UI text of the form modal and its review step in English and Chinese; see i18n.ts.
// Strings that embed server text take it already escaped for mrkdwn.
import type { Count, Locale } from './i18n.js';

/** The form modal: its buttons, pages, choices, hints and the review before sending. */
export interface FormText {
  /** The review step before sending. */
  reviewTitle: string;
  reviewIntro: string;
  noAnswers: string;
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
  /** Option `n` (1-based) of a select whose title and value show nothing (only zero-width or bidi characters). */
  optionFallback: Count;
  /** Placeholder of a select with too many options to list: the person types and the bot suggests. */
  typeToSearch: string;
  dateTimeGuidance: string;
  chooseExactly: Count;
  chooseBetween: (min: number, max: number) => string;
  chooseAtLeastHint: Count;
  chooseAtMostHint: Count;
  secretWarning: (fields: string) => string;
}

export const FORM_TEXT: Record<Locale, FormText> = {
  en: {
    reviewTitle: 'Review your answers',
    reviewIntro: 'Check your answers before sending. *Back* returns to the form to change them.',
    noAnswers: '(nothing filled in)',
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
    optionFallback: (n) => `Option ${n}`,
    typeToSearch: 'Type to search',
    dateTimeGuidance: 'Pick the time in your own time zone; it is sent as UTC.',
    chooseExactly: (n) => `Choose ${n}.`,
    chooseBetween: (min, max) => `Choose ${min} to ${max}.`,
    chooseAtLeastHint: (n) => `Choose at least ${n}.`,
    chooseAtMostHint: (n) => `Choose at most ${n}.`,
    secretWarning: (fields) =>
      `:warning: *This form asks for something that looks secret: ${fields}.* MCP servers must not ask for ` +
      'passwords, tokens, keys or card numbers in a form. Leave these empty or decline unless you are sure.',
  },
  'zh-CN': {
    reviewTitle: '确认你的回答',
    reviewIntro: '发送前请检查你的回答。点击*上一页*可返回表单修改。',
    noAnswers: '（未填写任何内容）',
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
    optionFallback: (n) => `选项 ${n}`,
    typeToSearch: '输入以搜索',
    dateTimeGuidance: '请按你所在的时区选择时间；发送时会转换为 UTC。',
    chooseExactly: (n) => `请选择 ${n} 项。`,
    chooseBetween: (min, max) => `请选择 ${min} 到 ${max} 项。`,
    chooseAtLeastHint: (n) => `请至少选择 ${n} 项。`,
    chooseAtMostHint: (n) => `最多选择 ${n} 项。`,
    secretWarning: (fields) =>
      `:warning: *此表单要求填写看似机密的信息：${fields}。* MCP 服务器不得在表单中索取密码、令牌、密钥或卡号。` +
      '除非你确定无误，否则请留空或拒绝。',
  },
};
