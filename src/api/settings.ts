// Small rules of the API's requests: how long a question may wait. (Which callback URLs are allowed: src/webhooks.)
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
