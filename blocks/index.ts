// Public API of the form engine: pure functions from elicitation requests to Slack views and back.
export {
  RESPOND_ACTION,
  DECLINE_ACTION,
  FORM_CALLBACK,
  URL_CONSENT_ACTION,
  PAGE_BACK_ACTION,
} from './ids.js';
export * from './schema.js';
export {
  requestCard,
  endedCard,
  toolResultMessage,
  reminderMessage,
  CARD_MESSAGE_SECTIONS_MAX,
  BUTTON_VALUE_MAX,
  type SlackMessage,
} from './card.js';
export { urlCard, urlFacts, UrlError, URL_MAX, type UrlFacts } from './url-card.js';
export { formModal, questionIdOf, pageOf, type ModalView, type FormModalInput } from './modal.js';
export { suggestOptions, SUGGESTIONS_MAX } from './suggest.js';
export { pageCount, pageFields, mergePageContent, PageError } from './pages.js';
export { secretFields, looksSecret } from './secrets.js';
export { localeOf, uiText, UI_TEXT, type Locale, type UiText } from './i18n.js';
export * from './submission.js';
export { SlackLimitError, escapeMrkdwn } from './text.js';
export { checkView, checkMessage } from './limits.js';
export {
  homeView,
  HOME_PENDING_MAX,
  HOME_RECENT_MAX,
  type HomeAnswer,
  type HomeQuestion,
  type HomeView,
} from './home.js';
