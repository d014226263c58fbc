// Loads a configuration that must describe a bot connected to Slack (the system tests and the benchmark
// start the bot against the stand-in); sandbox settings are a mistake of the test.
import { existsSync, readFileSync } from 'node:fs';
import {
  ConfigError,
  connectedConfig,
  loadConfig,
  type ConfigSources,
  type RedisConfig,
  type SlackAppConfig,
} from '../../src/config/index.js';

export function loadSlackConfig(sources: ConfigSources): SlackAppConfig {
  const config = connectedConfig(loadConfig(sources));
  if (!config) throw new Error('these settings describe the sandbox: give a bot token or the OAuth settings');
  return config;
}

/** The Redis settings the bot reads from `env` (REDIS_URL or a topology's, REDIS_TLS_CA_FILE read from disk). */
export function loadRedisConfig(env: Record<string, string | undefined>): RedisConfig {
  const readFile = (path: string): string | undefined =>
    existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  return loadConfig({ env, readFile }).redis;
}

/** The ConfigError `fn` throws; fails the test when it throws something else or nothing. */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
