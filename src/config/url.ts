// The one check of a URL setting the bot itself calls or sends browsers to (an MCP server's `url`,
// ELICIT_RELAY_PUBLIC_URL, an IdP's or authorization server's address): parsed as WHATWG URL parsing does
// (`new URL`, what fetch and the MCP transports do with it later), so a value that loads is one they accept,
// and a typo stops start-up naming its key instead of failing every connection or sign-in afterwards.
import { ConfigError } from './error.js';

/** `value` when it parses as an http: or https: URL with a host; a ConfigError naming `key` otherwise. */
export function readHttpUrl(key: string, value: string, fix: string): string {
  if (!URL.canParse(value)) throw new ConfigError(key, `"${value}" is not a URL`, fix);
  const { protocol, hostname } = new URL(value);
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new ConfigError(key, `"${value}" is not an http(s) URL`, fix);
  if (hostname === '') throw new ConfigError(key, `"${value}" names no host`, fix);
  return value;
}
