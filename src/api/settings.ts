// Small rules of the API's requests: how long a question may wait. (Which callback URLs are allowed: src/webhooks.)
import {
  DEFAULT_ELICITATION_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  parseDuration,
} from '../config/index.js';

/** `timeout` in ms (default 10 minutes), or undefined outside the config's bounds (1 s to 30 days). */
export function apiTimeoutMs(timeout: string | number | undefined): number | undefined {
  if (timeout === undefined) return DEFAULT_ELICITATION_TIMEOUT_MS;
  const ms = parseDuration(timeout);
  return ms !== undefined && ms >= MIN_TIMEOUT_MS && ms <= MAX_TIMEOUT_MS ? ms : undefined;
}
