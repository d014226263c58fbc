// Configuration, read and checked once at start-up (load.ts) into the types of types.ts; the rest of the bot
// imports it from here.
export type { AuditConfig } from './audit.js';
export { ConfigError } from './error.js';
export { logFormat } from './log-format.js';
export { connectedConfig, loadConfig, type ConfigSources } from './load.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS } from './servers.js';
export { DEFAULT_SLACK_POLICY, type ReminderSpec, type SlackPolicy } from './slack-policy.js';
export type {
  AppConfig,
  ConnectedSlack,
  OAuthConfig,
  ServerConfig,
  SlackAppConfig,
  SlackConfig,
  SlackConnection,
  TransportConfig,
} from './types.js';
