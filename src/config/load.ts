// Reads and validates configuration once, at start-up. Every error names the key and says how to fix it,
// so a wrong setting stops the bot before it serves anyone.
import { statSync } from 'node:fs';
import type { IsFile } from './command-line.js';
import { ConfigError } from './error.js';
import { parseDuration } from './duration.js';
import { checkGatewayTeams, readApi } from './api.js';
import { readAudit } from './audit.js';
import { readConfigFile } from './file.js';
import { isRecord } from './mapping.js';
import { readRedisSetting } from './redis.js';
import { readReplicaLease } from './replica-lease.js';
import { readSealInstallations, readSignIn, readTokenKeys } from './sign-in.js';
import { readServers } from './servers.js';
import { readSlack, servesSeveralWorkspaces } from './slack-env.js';
import type { AppConfig, SlackAppConfig } from './types.js';

export interface ConfigSources {
  env: Record<string, string | undefined>;
  /** Returns the file's text, or undefined when it does not exist. */
  readFile: (path: string) => string | undefined;
  /** Whether a file exists at the path (a stdio server's program); default: asked of the disk. */
  isFile?: IsFile;
}

export function loadConfig({ env, readFile, isFile = isFileOnDisk }: ConfigSources): AppConfig {
  const configPath = env.ELICIT_RELAY_CONFIG || './elicit-relay.yml';
  const read = readConfigFile('ELICIT_RELAY_CONFIG', configPath, readFile);
  if (read === undefined && env.ELICIT_RELAY_CONFIG) {
    throw new ConfigError(
      'ELICIT_RELAY_CONFIG',
      `no file at ${configPath}`,
      'Point it at an existing YAML or JSON file.',
    );
  }
  const file = read?.value;
  const servers = readServers(file, { env, isFile });
  const port = readPort(env.PORT);
  const signIn = readSignIn(env, servers, port);
  const tokenKeys = readTokenKeys(env);
  const slack = readSlack(env, readApiUrl(env));
  const api = readApi(file, env);
  checkGatewayTeams(api, servesSeveralWorkspaces(slack));
  return {
    slack,
    redis: readRedis(env, readFile),
    port,
    configPath,
    servers,
    audit: readAudit(isRecord(file) ? file.audit : undefined, env),
    api,
    ...(signIn ? { signIn } : {}),
    ...(tokenKeys ? { tokenKeys } : {}),
    ...(readSealInstallations(env, tokenKeys) ? { sealInstallations: true } : {}),
    ...shutdownDelay(env.ELICIT_RELAY_SHUTDOWN_DELAY),
    ...readReplicaLease(env.ELICIT_RELAY_REPLICA_LEASE),
  };
}

/** A path that cannot be looked at (EACCES on a folder in it) names no program the bot could start either. */
function isFileOnDisk(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** SLACK_API_URL, ending in "/"; default https://slack.com/api/ (the stand-in's URL in tests). */
function readApiUrl(env: ConfigSources['env']): string {
  const apiUrl = readUrl('SLACK_API_URL', env.SLACK_API_URL || 'https://slack.com/api/', ['http:', 'https:']);
  return apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
}

/** The configuration of a bot connected to Slack; undefined when it describes the sandbox (no credentials). */
export function connectedConfig(config: AppConfig): SlackAppConfig | undefined {
  const { slack } = config;
  return slack.mode === 'sandbox' ? undefined : { ...config, slack };
}

function readRedis(env: ConfigSources['env'], readFile: ConfigSources['readFile']): AppConfig['redis'] {
  const setting = readRedisSetting(env, readFile);
  const prefix = env.REDIS_PREFIX || 'elicit-relay';
  if (!/^[A-Za-z0-9._:-]+$/.test(prefix)) {
    throw new ConfigError(
      'REDIS_PREFIX',
      `"${prefix}" has characters that are not allowed`,
      'Use letters, digits, ".", "_", ":" or "-" (braces are reserved for hash tags).',
    );
  }
  return { ...setting, prefix, retentionSec: readRetention(env.ELICIT_RELAY_RETENTION) };
}

/** Finished records are kept 24 h by default; at least a minute, so a late click still reads "already answered". */
const DEFAULT_RETENTION_SEC = 86_400;
const RETENTION_MIN_MS = 60_000;

function readRetention(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_RETENTION_SEC;
  const ms = parseDuration(value);
  if (ms === undefined || ms < RETENTION_MIN_MS) {
    throw new ConfigError(
      'ELICIT_RELAY_RETENTION',
      `"${value}" is not a duration of at least 1m`,
      'Write a duration such as "24h", "7d" or "30m".',
    );
  }
  return Math.round(ms / 1000);
}

/**
 * The longest ELICIT_RELAY_SHUTDOWN_DELAY, in ms: it is spent inside the stop's 20 s (STOP_WITHIN_MS, so the
 * stop still ends inside Kubernetes' default 30 s grace), and this leaves the parts at least 10 s to stop.
 */
const MAX_SHUTDOWN_DELAY_MS = 10_000;

/** ELICIT_RELAY_SHUTDOWN_DELAY: none when unset, empty or 0 (a stop goes on at once, as before the setting). */
function shutdownDelay(value: string | undefined): { shutdownDelayMs?: number } {
  if (value === undefined || value === '') return {};
  const ms = parseDuration(value);
  if (ms === undefined || ms > MAX_SHUTDOWN_DELAY_MS) {
    throw new ConfigError(
      'ELICIT_RELAY_SHUTDOWN_DELAY',
      `"${value}" is not a duration from 0 to 10s`,
      'Write a duration such as "5s" (0 for none); it is spent inside the stop\'s 20 s, so at most "10s".',
    );
  }
  return ms === 0 ? {} : { shutdownDelayMs: ms };
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  // Digits only: Number() also reads "0x10" (16) and "1e3" (1000), a port nobody meant.
  const port = /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(
      'PORT',
      `"${value}" is not a port number`,
      'Use an integer from 0 to 65535 (0 picks a free port).',
    );
  }
  return port;
}

function readUrl(key: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (cause) {
    throw new ConfigError(key, `"${value}" is not a URL`, `Use a ${protocols.join(' or ')}// URL.`, {
      cause,
    });
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(key, `"${value}" uses ${url.protocol}`, `Use a ${protocols.join(' or ')}// URL.`);
  }
  return value;
}
