// The webhook settings from the environment, checked once at start-up.
import { ConfigError } from '../config/error.js';
import { type AllowList, parseAllowList } from './hosts.js';

export interface WebhookConfig {
  /** ELICIT_RELAY_WEBHOOK_HOSTS; empty: every callbackUrl is refused. */
  allowed: AllowList;
  /** ELICIT_RELAY_WEBHOOK_SECRET; required once a host is allowed. */
  secret?: string;
}

export function readWebhookConfig(env: Record<string, string | undefined>): WebhookConfig {
  const parsed = parseAllowList(env.ELICIT_RELAY_WEBHOOK_HOSTS ?? '');
  if ('bad' in parsed) {
    throw new ConfigError(
      'ELICIT_RELAY_WEBHOOK_HOSTS',
      `"${parsed.bad}" is not a host name or host:port`,
      'List host names or host:port pairs separated by commas, e.g. "ci.example.com,hooks.example.com:8443".',
    );
  }
  const secret = env.ELICIT_RELAY_WEBHOOK_SECRET || undefined;
  if (parsed.hosts.length > 0 && secret === undefined) {
    throw new ConfigError(
      'ELICIT_RELAY_WEBHOOK_SECRET',
      'is not set while ELICIT_RELAY_WEBHOOK_HOSTS allows callbacks',
      'Set it to a long random string; receivers verify each delivery with it.',
    );
  }
  return { allowed: parsed.hosts, ...(secret === undefined ? {} : { secret }) };
}
