// The Slack side's front door: the one factory, and what the composition root needs to wire it.
export { createSlackApp, type SlackApp, type SlackAppOptions } from './app.js';
export type { Audience } from './audience.js';
export { checkFormSchema, checkUrl, refuseSecretFields } from './checks.js';
export { HomeTab } from './home.js';
export { OpenModals } from './open-modals.js';
export { connectionOf } from './receivers.js';
export { ToolResults } from './tool-results.js';
export type { ToolRunner } from './tools.js';
export { UrlCompletions } from './url-completions.js';
export { Outbox } from './outbox/index.js';
export { SlackState, type SlackStatePorts } from './state/index.js';
