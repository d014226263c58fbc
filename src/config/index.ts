// Configuration, read and checked once at start-up (load.ts); the rest of the bot imports it from here.
export { ConfigError } from './error.js';
export { loadConfig } from './load.js';
export type {
  AppConfig,
  ConfigSources,
  OAuthConfig,
  ServerConfig,
  SlackMode,
  TransportConfig,
} from './load.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS } from './servers.js';
export { DEFAULT_SLACK_POLICY, type ReminderSpec, type SlackPolicy } from './slack-policy.js';
