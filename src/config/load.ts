// Reads and validates configuration once, at start-up. Every error names the key and says how to fix it,
// so a wrong setting stops the bot before it serves anyone.
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './error.js';
import { parseDuration } from './duration.js';
import { readServers } from './servers.js';
import type { SlackPolicy } from './slack-policy.js';

export { ConfigError };

export type SlackMode = 'http' | 'socket' | 'sandbox';

export type TransportConfig =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> };

export interface ServerConfig {
  name: string;
  transport: TransportConfig;
  /** How long a person has to answer one elicitation from this server, in ms. Default 10 minutes. */
  elicitationTimeoutMs: number;
  /** form: ask people (default); decline: answer decline without asking; off: do not declare the capability. */
  elicitationMode: 'form' | 'decline' | 'off';
  /** Most new questions per minute from this server, across replicas; unlimited when absent. */
  ratePerMinute?: number;
  /**
   * Most questions of this server waiting for an answer at once on each replica (the one holding the
   * server's session); beyond it a new elicitation gets -32600 before Slack is asked. Unlimited when absent.
   */
  maxPending?: number;
  /**
   * `elicitation.unsolicited: { user: "U…" }`: the person asked when the server elicits with no tool call of
   * this bot in flight. Absent: such an elicitation is refused with -32600.
   */
  unsolicitedUser?: string;
  /** Refuse (-32602) forms with fields that look like secrets, which the spec forbids in form mode; default warn. */
  refuseSecrets?: boolean;
  /** Where questions go in Slack, who answers, review, close and reminders; DEFAULT_SLACK_POLICY when absent. */
  slack?: SlackPolicy;
}

export interface AppConfig {
  slack: {
    mode: SlackMode;
    botToken?: string;
    signingSecret?: string;
    appToken?: string;
    /** Base URL of the Web API, always ending in "/". Default https://slack.com/api/ */
    apiUrl: string;
    /** Multi-workspace distribution with Bolt's OAuth flow; each workspace's bot token comes from its install. */
    oauth?: OAuthConfig;
  };
  /**
   * retentionSec: how long finished questions (and each person's recent answers) are kept, in seconds.
   * ELICIT_RELAY_RETENTION; default 86400 (24h). Absent means the default.
   */
  redis: { url: string; prefix: string; retentionSec?: number };
  /** HTTP port for Slack's requests and /healthz. Default 3000; 0 picks a free port. */
  port: number;
  configPath: string;
  servers: ServerConfig[];
}

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Signs the OAuth `state` (CSRF protection of the install flow). */
  stateSecret: string;
}

export interface ConfigSources {
  env: Record<string, string | undefined>;
  /** Returns the file's text, or undefined when it does not exist. */
  readFile: (path: string) => string | undefined;
}

export function loadConfig({ env, readFile }: ConfigSources): AppConfig {
  const configPath = env.ELICIT_RELAY_CONFIG || './elicit-relay.yml';
  const text = readFile(configPath);
  if (text === undefined && env.ELICIT_RELAY_CONFIG) {
    throw new ConfigError(
      'ELICIT_RELAY_CONFIG',
      `no file at ${configPath}`,
      'Point it at an existing YAML or JSON file.',
    );
  }
  return {
    slack: readSlack(env),
    redis: readRedis(env),
    port: readPort(env.PORT),
    configPath,
    servers: text === undefined ? [] : readServers(parseFile(configPath, text), env),
  };
}

function readSlack(env: ConfigSources['env']): AppConfig['slack'] {
  const botToken = env.SLACK_BOT_TOKEN || undefined;
  const signingSecret = env.SLACK_SIGNING_SECRET || undefined;
  const appToken = env.SLACK_APP_TOKEN || undefined;
  const apiUrl = readUrl('SLACK_API_URL', env.SLACK_API_URL || 'https://slack.com/api/', ['http:', 'https:']);
  const oauth = readOAuth(env);
  const slack = {
    botToken,
    signingSecret,
    appToken,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    ...(oauth ? { oauth } : {}),
  };
  const forced = env.ELICIT_RELAY_MODE || undefined;
  if (forced !== undefined && forced !== 'sandbox' && forced !== 'slack') {
    throw new ConfigError(
      'ELICIT_RELAY_MODE',
      `"${forced}" is not a mode`,
      'Use "sandbox" or "slack", or leave it unset to choose by the Slack credentials.',
    );
  }
  if (forced === 'sandbox') return { ...slack, mode: 'sandbox' };
  if (!botToken && !oauth && forced === 'slack') {
    throw new ConfigError(
      'SLACK_BOT_TOKEN',
      'is not set but ELICIT_RELAY_MODE is "slack"',
      'Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, or unset ELICIT_RELAY_MODE to run the sandbox.',
    );
  }
  if (!botToken && !oauth) {
    if (signingSecret || appToken) {
      throw new ConfigError('SLACK_BOT_TOKEN', 'is not set', 'Set it to the Bot User OAuth Token (xoxb-…).');
    }
    return { ...slack, mode: 'sandbox' };
  }
  if (botToken && oauth) {
    throw new ConfigError(
      'SLACK_BOT_TOKEN',
      'is set together with SLACK_CLIENT_ID',
      'Unset SLACK_BOT_TOKEN: with OAuth every workspace, the first one too, is installed at /slack/install.',
    );
  }
  if (botToken && !botToken.startsWith('xoxb-')) {
    throw new ConfigError(
      'SLACK_BOT_TOKEN',
      'is not a bot token',
      'Use the Bot User OAuth Token, which starts with xoxb-.',
    );
  }
  if (appToken) {
    if (!appToken.startsWith('xapp-')) {
      throw new ConfigError(
        'SLACK_APP_TOKEN',
        'is not an app-level token',
        'Use an app-level token (xapp-…) with connections:write, or unset it for HTTP mode.',
      );
    }
    return { ...slack, mode: 'socket' };
  }
  if (!signingSecret) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET',
      'is not set',
      'Set it to the Signing Secret from Basic Information, or set SLACK_APP_TOKEN for Socket Mode.',
    );
  }
  return { ...slack, mode: 'http' };
}

const OAUTH_KEYS = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
/** Shortest SLACK_STATE_SECRET accepted, in characters: it signs the install flow's state. */
const MIN_STATE_SECRET = 16;

/** The OAuth settings, all three or none. */
function readOAuth(env: ConfigSources['env']): OAuthConfig | undefined {
  const [clientId, clientSecret, stateSecret] = OAUTH_KEYS.map((key) => env[key] || undefined);
  if (!clientId && !clientSecret && !stateSecret) return undefined;
  const missing = OAUTH_KEYS.find((key) => !env[key]);
  if (missing || !clientId || !clientSecret || !stateSecret) {
    throw new ConfigError(
      missing ?? 'SLACK_CLIENT_ID',
      'is not set',
      `Set ${OAUTH_KEYS.join(', ')} together for multi-workspace installs, or none of them.`,
    );
  }
  if (stateSecret.length < MIN_STATE_SECRET) {
    throw new ConfigError(
      'SLACK_STATE_SECRET',
      `is shorter than ${MIN_STATE_SECRET} characters`,
      'Use a long random string, e.g. the output of `openssl rand -hex 32`.',
    );
  }
  return { clientId, clientSecret, stateSecret };
}

function readRedis(env: ConfigSources['env']): AppConfig['redis'] {
  const url = readUrl('REDIS_URL', env.REDIS_URL || 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  const prefix = env.REDIS_PREFIX || 'elicit-relay';
  if (!/^[A-Za-z0-9._:-]+$/.test(prefix)) {
    throw new ConfigError(
      'REDIS_PREFIX',
      `"${prefix}" has characters that are not allowed`,
      'Use letters, digits, ".", "_", ":" or "-" (braces are reserved for hash tags).',
    );
  }
  return { url, prefix, retentionSec: readRetention(env.ELICIT_RELAY_RETENTION) };
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

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
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

function parseFile(path: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (cause) {
    throw new ConfigError(path, 'is not valid YAML or JSON', `Fix the syntax error: ${String(cause)}`, {
      cause,
    });
  }
}
