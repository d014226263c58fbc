// The settings every MCP sign-in needs (issue #20), once a server has `auth` (server-auth.ts): the key that
// encrypts tokens in Redis and the public URL of the bot's OAuth callback.
import { ConfigError } from './error.js';
import type { ServerConfig, SignInConfig } from './types.js';

type Env = Record<string, string | undefined>;

/**
 * ELICIT_RELAY_TOKEN_KEY (and _PREVIOUS while rotating) and ELICIT_RELAY_PUBLIC_URL: required once any
 * server has `auth`; undefined when none has.
 */
export function readSignIn(env: Env, servers: ServerConfig[]): SignInConfig | undefined {
  const signing = servers.filter((server) => server.auth !== undefined);
  if (signing.length === 0) return undefined;
  const needer = `mcpServers.${signing[0]?.name ?? ''}.auth`;
  const tokenKey = readKey('ELICIT_RELAY_TOKEN_KEY', env.ELICIT_RELAY_TOKEN_KEY, needer);
  const previous = env.ELICIT_RELAY_TOKEN_KEY_PREVIOUS;
  const publicUrl = env.ELICIT_RELAY_PUBLIC_URL;
  const interactive = signing.some(
    (server) => server.auth?.mode === 'oauth' || server.auth?.mode === 'enterpriseManaged',
  );
  if (interactive && (publicUrl === undefined || !/^https?:\/\/[^/]/.test(publicUrl)))
    throw new ConfigError(
      'ELICIT_RELAY_PUBLIC_URL',
      publicUrl ? `"${publicUrl}" is not an http(s) URL` : 'is not set',
      `${needer} signs people in: set it to the bot's public base URL (the callback is <it>/oauth/mcp/callback).`,
    );
  return {
    tokenKey,
    ...(previous ? { previousTokenKey: readKey('ELICIT_RELAY_TOKEN_KEY_PREVIOUS', previous, needer) } : {}),
    ...(publicUrl ? { publicUrl: publicUrl.replace(/\/+$/, '') } : {}),
  };
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
