// UI text of the form engine in English and Chinese. One table per language with the same keys; the caller
// picks the language (usually from the person's Slack locale) and English is the fallback. Each family of
// messages keeps its English and Chinese side by side in its own file (i18n-card, -form, -url, -refusals,
// -validation); this one joins them into the table a caller is given.
// Strings that embed server text take it already escaped for mrkdwn.
import type { EndReason } from '../src/relay/types.js';
import { CARD_TEXT, type CardText } from './i18n-card.js';
import { FORM_TEXT, type FormText } from './i18n-form.js';
import { REFUSAL_TEXT, type RefusalText } from './i18n-refusals.js';
import { URL_TEXT, type UrlText } from './i18n-url.js';
import { VALIDATION_TEXT, type ValidationText } from './i18n-validation.js';

export type Locale = 'en' | 'zh-CN';

/** The locale for a Slack user's `locale` (e.g. "zh-CN", "zh-TW", "en-US"); English for anything else. */
export function localeOf(slackLocale?: string): Locale {
  return slackLocale !== undefined && /^zh(?:[-_]|$)/i.test(slackLocale) ? 'zh-CN' : 'en';
}

/** A text that counts something. */
export type Count = (n: number) => string;

/**
 * An ended question's status: a URL question's own words for a link opened, or given up on. A URL card has no
 * form to close, so its 'closed' (the contract's reason for a cancel by the person's own act) is its Cancel.
 */
export function endedLabel(t: UiText, reason: EndReason, mode?: 'form' | 'url'): string {
  if (mode === 'url' && reason === 'answered') return t.linkOpened;
  if (mode === 'url' && reason === 'closed') return t.linkCancelled;
  return t.ended[reason];
}

export interface UiText extends CardText, FormText, UrlText {
  /** Why a click or submit changed nothing. */
  refusals: RefusalText;
  errors: ValidationText;
}

function tableOf(locale: Locale): UiText {
  return {
    ...CARD_TEXT[locale],
    ...FORM_TEXT[locale],
    ...URL_TEXT[locale],
    refusals: REFUSAL_TEXT[locale],
    errors: VALIDATION_TEXT[locale],
  };
}

/** Both tables, exported so a test can check that they have the same keys. */
export const UI_TEXT: Record<Locale, UiText> = { en: tableOf('en'), 'zh-CN': tableOf('zh-CN') };

/** The table for `locale`; English for undefined or anything unknown. */
export function uiText(locale?: Locale): UiText {
  return locale === 'zh-CN' ? UI_TEXT['zh-CN'] : UI_TEXT.en;
}
