// Public API of the form engine: pure functions from elicitation requests to Slack views and back.
export {
  RESPOND_ACTION,
  DECLINE_ACTION,
  FORM_CALLBACK,
  URL_CONSENT_ACTION,
  URL_RETRY_ACTION,
  URL_CANCEL_ACTION,
  PAGE_BACK_ACTION,
  REVIEW_CALLBACK,
} from './ids.js';
export { approvesSomething, reviewModal } from './review.js';
export * from './schema.js';
export {
  requestCard,
  endedCard,
  reminderMessage,
  CARD_MESSAGE_SECTIONS_MAX,
  type SlackMessage,
  type CardAbout,
} from './card.js';
export { answerLines, SUMMARY_LINES_MAX } from './summary.js';
export { urlCard, urlCompletedCard, urlFacts, UrlError, type UrlFacts } from './url-card.js';
export {
  formModal,
  MESSAGE_SECTIONS_MAX,
  questionIdOf,
  viewLocaleOf,
  type ModalView,
  type FormModalView,
  type FormModalInput,
} from './modal.js';
export { suggestOptions } from './suggest.js';
export * from './slack-limits.js';
export { pageCount, pageFields, mergePageContent, PageError } from './pages.js';
export { secretFields, looksSecret } from './secrets.js';
export { localeOf, uiText, UI_TEXT, type Locale, type UiText } from './i18n.js';
export * from './submission.js';
export { validationErrors } from './validate.js';
export { PATTERN_TEST_MS, withPatternTimeouts } from './patterns.js';
export { SlackLimitError, codeName, escapeMrkdwn, escapeMrkdwnWithin, truncate } from './text.js';
export {
  homeView,
  HOME_PENDING_MAX,
  HOME_RECENT_MAX,
  type HomeAnswer,
  type HomeQuestion,
  type HomeView,
} from './home.js';
export {
  commandText,
  COMMAND_TEXT,
  type CommandText,
  type ServerFailureName,
  type ServerStateName,
} from './i18n-commands.js';
export { listingText, LISTING_TEXT, type ListingFailureName, type ListingText } from './i18n-listing.js';
export { toolsMessage, takesArguments, TOOLS_SHOWN_MAX, type ListedTool } from './tools.js';
export {
  needsSnippet,
  resultMessage,
  structuredSummary,
  urlRequiredMessage,
  retryTargetOf,
  retryingMessage,
  progressMessage,
  runThreadMessage,
  threadUnavailableMessage,
  INLINE_CHARS_MAX,
  INLINE_LINES_MAX,
  RETRY_ACTION,
  LINK_ACTION_PREFIX,
  URL_LINKS_MAX,
  type RetryTarget,
  type ToolOutcome,
  type WorkEnd,
} from './results.js';
export { CANCEL_RUN_ACTION, runCancelTargetOf, type RunCancelTarget } from './run-cancel.js';
export {
  runFormModal,
  runFormSpec,
  loadingModal,
  noticeModal,
  runTargetOf,
  readRunArguments,
  toolSchemaProblem,
  RUN_FORM_CALLBACK,
  RUN_JSON_BLOCK,
  type ArgsResult,
  type RunTarget,
  type RunFormTarget,
} from './run-form.js';
export {
  checkInlineArguments,
  inlineArgumentsRefusal,
  withNumberProblems,
  ARGUMENT_PROBLEMS_SHOWN,
  type ArgumentProblem,
  type InlineArgumentsCheck,
} from './inline-args.js';
export { inlineArgsText, INLINE_ARGS_TEXT, type InlineArgsText } from './i18n-inline-args.js';
export { inexactNumbers, inexactKind, type InexactKind, type InexactNumber } from './json-numbers.js';
export {
  inexactNumberMessage,
  jsonFieldNumbersError,
  jsonNumbersText,
  JSON_NUMBERS_TEXT,
  type JsonNumbersText,
} from './i18n-json-numbers.js';
export {
  signInPrompt,
  signInDone,
  signInExpired,
  signInRefused,
  signInText,
  connectionBlocks,
  SIGN_IN_TEXT,
  CONNECT_ACTION,
  DISCONNECT_ACTION,
  HOME_CONNECTIONS_MAX,
  type HomeConnection,
  type SignInPromptInput,
  type SignInRefusal,
  type SignInText,
} from './sign-in.js';
