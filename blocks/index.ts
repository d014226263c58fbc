// Public API of the form engine: pure functions from elicitation requests to Slack views and back.
export { RESPOND_ACTION, DECLINE_ACTION, FORM_CALLBACK } from './ids.js';
export * from './schema.js';
export * from './card.js';
export { formModal, questionIdOf, type ModalView } from './modal.js';
export * from './submission.js';
export { SlackLimitError } from './text.js';
export { checkView, checkMessage } from './limits.js';
