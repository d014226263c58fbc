// The Slack side's front door: the one factory, and Slack's own Redis state that the composition root opens
// (and closes) around it. Nothing outside src/slack imports its inner files.
export { Outbox } from './outbox/index.js';
export { createSlack, type Slack, type SlackOptions } from './slack.js';
export type { Mount } from './http-server.js';
export { SlackState, type SlackStatePorts } from './state/index.js';
