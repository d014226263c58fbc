// Configuration, read and checked once at start-up (load.ts) into the types of types.ts; the rest of the bot
// imports it from here.
export type { AuditConfig } from './audit.js';
export { ConfigError } from './error.js';
export { logFormat, logLevel } from './log-format.js';
export { connectedConfig, loadConfig, type ConfigSources } from './load.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './elicitation.js';
export { parseDuration } from './duration.js';
export { servesSeveralWorkspaces } from './slack-env.js';
export type { RedisAccess, RedisConfig, RedisNode, RedisSetting, RedisTopology } from './redis.js';
export { DEFAULT_SLACK_POLICY, type ReminderSpec, type SlackPolicy } from './slack-policy.js';
export { DEFAULT_API_CLIENT } from './api.js';
export type {
  ApiClientConfig,
  ApiConfig,
  AppConfig,
  ConnectedSlack,
  OAuthConfig,
  SignInWithSlackConfig,
  ServerAuthConfig,
  ServerConfig,
  SignInConfig,
  TokenKeys,
  SlackAppConfig,
  SlackConfig,
  SlackConnection,
  TransportConfig,
} from './types.js';
