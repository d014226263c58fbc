// Small rules of the API's requests: how long a question may wait, and which callback URLs are allowed.
import { DEFAULT_ELICITATION_TIMEOUT_MS, parseDuration } from '../config/index.js';

/** Shortest and longest `timeout` of an API question: 1 s and 30 days (automations may wait long). */
const MIN_TIMEOUT_MS = 1_000;
const MAX_TIMEOUT_MS = 30 * 86_400_000;

/** `timeout` in ms (default 10 minutes, as for MCP servers), or undefined when out of bounds. */
export function apiTimeoutMs(timeout: string | number | undefined): number | undefined {
  if (timeout === undefined) return DEFAULT_ELICITATION_TIMEOUT_MS;
  const ms = parseDuration(timeout);
  return ms !== undefined && ms >= MIN_TIMEOUT_MS && ms <= MAX_TIMEOUT_MS ? ms : undefined;
}

/**
 * Why `callbackUrl` may not be used, or undefined: it must be http(s) and its host (or host:port) listed in
 * ELICIT_RELAY_WEBHOOK_HOSTS. The webhook sender checks the resolved address again at delivery.
 */
export function callbackRefusal(callbackUrl: string, allowedHosts: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  const host = url.hostname.toLowerCase();
  if (allowedHosts.includes(host) || allowedHosts.includes(url.host.toLowerCase())) return undefined;
  return `host ${url.host} is not allowed (add it to ELICIT_RELAY_WEBHOOK_HOSTS)`;
}
