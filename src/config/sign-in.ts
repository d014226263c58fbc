// The settings every MCP sign-in needs (issue #20), once a server has `auth` (server-auth.ts): the key that
// encrypts tokens in Redis and the public URL of the bot's OAuth callback.
import { ConfigError } from './error.js';
import type { ServerConfig, SignInConfig, TokenKeys } from './types.js';
import { readHttpUrl } from './url.js';

type Env = Record<string, string | undefined>;

/**
 * ELICIT_RELAY_TOKEN_KEY (and _PREVIOUS while rotating): required once any server has `auth`; undefined when
 * none has. ELICIT_RELAY_PUBLIC_URL once a server signs people in: default http://localhost:<PORT> (PRODUCT.md),
 * which serves a bot on the same machine as the browser; anyone else's browser needs the public one set.
 */
export function readSignIn(env: Env, servers: ServerConfig[], port: number): SignInConfig | undefined {
  // Checked whenever it is set, whatever uses it (the sandbox, or a bot whose servers sign nobody in, does not):
  // a wrong setting stops start-up (README's settings) rather than being ignored until a server needs it.
  const given = readGivenPublicUrl(env.ELICIT_RELAY_PUBLIC_URL);
  const signing = servers.filter((server) => server.auth !== undefined);
  if (signing.length === 0) return undefined;
  const needer = `mcpServers.${signing[0]?.name ?? ''}.auth`;
  const tokenKey = readKey('ELICIT_RELAY_TOKEN_KEY', env.ELICIT_RELAY_TOKEN_KEY, needer);
  const previous = env.ELICIT_RELAY_TOKEN_KEY_PREVIOUS;
  const interactive = signing.some(
    (server) => server.auth?.mode === 'oauth' || server.auth?.mode === 'enterpriseManaged',
  );
  const publicUrl = interactive ? readPublicUrl(given, port, needer) : given;
  return {
    tokenKey,
    ...(previous ? { previousTokenKey: readKey('ELICIT_RELAY_TOKEN_KEY_PREVIOUS', previous, needer) } : {}),
    ...(publicUrl ? { publicUrl } : {}),
  };
}

/**
 * ELICIT_RELAY_TOKEN_KEY (and _PREVIOUS) whenever it is set, whether or not a server has `auth`: Slack
 * installations are sealed with it too (src/slack/state/sealed-installations.ts). Unset: undefined, nothing sealed.
 */
export function readTokenKeys(env: Env): TokenKeys | undefined {
  const value = env.ELICIT_RELAY_TOKEN_KEY;
  if (value === undefined || value === '') return undefined;
  const needer = 'ELICIT_RELAY_TOKEN_KEY';
  const previous = env.ELICIT_RELAY_TOKEN_KEY_PREVIOUS;
  return {
    tokenKey: readKey('ELICIT_RELAY_TOKEN_KEY', value, needer),
    ...(previous ? { previousTokenKey: readKey('ELICIT_RELAY_TOKEN_KEY_PREVIOUS', previous, needer) } : {}),
  };
}

/**
 * ELICIT_RELAY_SEAL_INSTALLATIONS (true | false, default false): whether Slack installations are written sealed
 * with ELICIT_RELAY_TOKEN_KEY. Off by default for one release: a replica of the previous release (during a rolling
 * deploy, or after a rollback) cannot open a sealed installation and would treat its workspace as not installed.
 */
export function readSealInstallations(env: Env, keys: TokenKeys | undefined): boolean {
  const key = 'ELICIT_RELAY_SEAL_INSTALLATIONS';
  const value = env[key];
  if (value === undefined || value === '' || value === 'false') return false;
  if (value !== 'true') throw new ConfigError(key, `"${value}" is not true or false`, 'Write true or false.');
  if (keys === undefined) {
    throw new ConfigError(
      key,
      'needs ELICIT_RELAY_TOKEN_KEY to seal with',
      'Set ELICIT_RELAY_TOKEN_KEY (openssl rand -base64 32), the same on every replica, or unset it.',
    );
  }
  return true;
}

/** ELICIT_RELAY_PUBLIC_URL as set, checked, without a trailing "/"; undefined when unset or empty. */
function readGivenPublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const fix =
    "Set it to the bot's public base URL, such as https://relay.example.com (MCP sign-in's callback is <it>/oauth/mcp/callback), or unset it.";
  return readHttpUrl('ELICIT_RELAY_PUBLIC_URL', value, fix).replace(/\/+$/, '');
}

/** The bot's public base URL (`given`, already checked) or its default; the callback is <it>/oauth/mcp/callback. */
function readPublicUrl(given: string | undefined, port: number, needer: string): string {
  if (given !== undefined) return given;
  const fix = `${needer} signs people in: set it to the bot's public base URL (the callback is <it>/oauth/mcp/callback).`;
  // PORT 0 is a port picked at start: no browser could be sent back to it.
  if (port === 0) throw new ConfigError('ELICIT_RELAY_PUBLIC_URL', 'is not set and PORT is 0', fix);
  return `http://localhost:${port}`;
}

function readKey(name: string, value: string | undefined, needer: string): Buffer {
  const fix = 'Make one with `openssl rand -base64 32` (32 bytes, base64).';
  if (value === undefined || value === '')
    throw new ConfigError(name, `is not set but ${needer} stores tokens`, fix);
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32 || key.toString('base64') !== value.trim())
    throw new ConfigError(name, 'is not 32 bytes in base64', fix);
  return key;
}
