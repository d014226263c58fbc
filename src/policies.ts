// Each MCP server's policies in one map, built once from the configuration and looked up by server name: how
// Slack asks (routing, answerers, review, reminders), how fast the server may ask, and whether it may ask for
// secrets. A server the configuration does not name gets the defaults.
import { DEFAULT_SLACK_POLICY, type ServerConfig, type SlackPolicy } from './config/index.js';
import type { RateLimit } from './relay/relay.js';
import { reminderTimes } from './relay/reminders.js';

export interface ServerPolicy {
  slack: SlackPolicy;
  /** New questions allowed per window across replicas; unlimited when absent. */
  rateLimit?: RateLimit;
  /** Refuse forms whose fields look like secrets (MCP forbids asking for them in form mode). */
  refuseSecrets: boolean;
}

const DEFAULT_POLICY: ServerPolicy = { slack: DEFAULT_SLACK_POLICY, refuseSecrets: false };

/** `ratePerMinute` is per minute: 60 000 ms. */
const RATE_WINDOW_MS = 60_000;

export class ServerPolicies {
  private readonly byName: Map<string, ServerPolicy>;

  constructor(servers: readonly ServerConfig[]) {
    this.byName = new Map(servers.map((server) => [server.name, policyOf(server)]));
  }

  of(server: string): ServerPolicy {
    return this.byName.get(server) ?? DEFAULT_POLICY;
  }

  /** When to nudge (epoch ms): the server's reminders when it names some, else one at half time. */
  reminderTimes(timeoutMs: number, now: number, server: string): number[] {
    return reminderTimes(this.of(server).slack.reminders, timeoutMs, now);
  }
}

function policyOf(server: ServerConfig): ServerPolicy {
  return {
    slack: server.slack ?? DEFAULT_SLACK_POLICY,
    refuseSecrets: server.refuseSecrets === true,
    ...(server.ratePerMinute ? { rateLimit: { max: server.ratePerMinute, perMs: RATE_WINDOW_MS } } : {}),
  };
}
