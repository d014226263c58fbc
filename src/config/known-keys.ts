// The bot's own sections of the config file (`api`, `audit`, a server's `elicitation`…) take known settings
// only: a misspelled key (`tagets`, `timout`) would otherwise be ignored and its default kept silently, which
// for `api.clients.<name>.targets` means a client that may ask anyone. The top level and each server's entry
// stay open, since Claude Desktop and other editors write keys of their own there.
import { ConfigError } from './error.js';

/** The settings each bot-owned section knows, by the section's name (in its key path). */
export const KNOWN_KEYS = {
  api: ['clients', 'gateway'],
  /** `api.clients.<name>` */
  client: ['token', 'servers', 'targets', 'ratePerMinute', 'as'],
  /** `api.gateway` */
  gateway: ['as'],
  /** `api.gateway.as` and `api.clients.<name>.as`, written as a mapping */
  person: ['user', 'team'],
  audit: ['content', 'retention'],
  /** `mcpServers.<name>.elicitation` */
  elicitation: ['timeout', 'mode', 'ratePerMinute', 'maxPending', 'secrets', 'unsolicited', 'maxRounds'],
  /** `mcpServers.<name>.elicitation.unsolicited` */
  unsolicited: ['user'],
  /** `mcpServers.<name>.slack.answerers` */
  answerers: ['requester', 'users', 'usergroups', 'channel'],
} as const satisfies Record<string, readonly string[]>;

/** Throws a ConfigError naming `<at>.<key>` for the first key of `entry` that is not in `known`. */
export function refuseUnknownKeys(
  at: string,
  entry: Record<string, unknown>,
  known: readonly string[],
): void {
  const unknown = Object.keys(entry).find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new ConfigError(`${at}.${unknown}`, 'is not a setting', `Use one of: ${known.join(', ')}.`);
}
