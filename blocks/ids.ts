// Stable Slack identifiers. Block and action ids are derived from a property's index plus a readable
// prefix of its name, so any property name (spaces, dots, CJK, 300 characters) gives a valid, unique id.

/** Card button that opens the form; its value is the question id. */
export const RESPOND_ACTION = 'elicit_respond';
/** Card button that declines the question; its value is the question id. */
export const DECLINE_ACTION = 'elicit_decline';
/**
 * URL-mode card button: it opens the URL and also sends block_actions (value: the question id), so the
 * bot records the person's consent.
 */
export const URL_CONSENT_ACTION = 'elicit_url_open';
/**
 * A 2026 URL-mode card the server asked for again (the step behind the link is not done yet): Retry counts as
 * consent and sends the call again; Cancel ends the call cancelled. Value: the question id.
 */
export const URL_RETRY_ACTION = 'elicit_url_retry';
export const URL_CANCEL_ACTION = 'elicit_url_cancel';
/** "Back" button of a paged form (value: the question id); the page is the person's draft, kept by the bot. */
export const PAGE_BACK_ACTION = 'elicit_page_back';
/** callback_id of the form modal. */
export const FORM_CALLBACK = 'elicit_form';
/** callback_id of the review view pushed over the form before sending. */
export const REVIEW_CALLBACK = 'elicit_review';

/** Characters of the property name kept in its block id, for people reading payloads. */
const NAME_PREFIX_CHARS = 32;

/** `f<index>_<name prefix>`: unique by index, ≤ 40 characters, only [A-Za-z0-9_-]. */
export function fieldBlockId(index: number, name: string): string {
  const prefix = Array.from(name)
    .slice(0, NAME_PREFIX_CHARS)
    .map((ch) => (/^[A-Za-z0-9_-]$/.test(ch) ? ch : '_'))
    .join('');
  return `f${index}_${prefix}`;
}

/** Option values are indexes ("o3"), so consts of any length map back exactly. */
export function optionValue(index: number): string {
  return `o${index}`;
}

/** The index encoded by {@link optionValue}, or undefined for anything else. */
export function optionIndex(value: string): number | undefined {
  const match = /^o(0|[1-9][0-9]{0,5})$/.exec(value);
  return match ? Number(match[1]) : undefined;
}
