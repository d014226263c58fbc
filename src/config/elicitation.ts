// A server's optional `elicitation` section (under `mcpServers.<name>`): how long people have to answer, whether
// they are asked at all, how many questions may come and wait, secrets, unsolicited questions and 2026 rounds.
// Unknown keys inside it are refused (known-keys.ts).
import { ConfigError } from './error.js';
import { parseDuration } from './duration.js';
import { KNOWN_KEYS, refuseUnknownKeys } from './known-keys.js';
import { isRecord } from './mapping.js';
import type { ServerConfig } from './types.js';

/** Used when a server sets no `elicitation.timeout`: 10 minutes. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 10 * 60_000;
/**
 * Questions of one server open at once on a replica: 20. More cards than a person can read in one sitting
 * is a flood (a hostile or looping server), not a form; a team that needs more raises `maxPending`.
 */
export const DEFAULT_MAX_PENDING = 20;
/** New questions of one server per minute across replicas: 60, i.e. one a second sustained. */
export const DEFAULT_RATE_PER_MINUTE = 60;
export const MIN_TIMEOUT_MS = 1000;
/** Automations may wait a long time for an answer; 30 days is the ceiling. */
export const MAX_TIMEOUT_MS = 30 * 86_400_000;

/** The part of a server's config that its `elicitation` section sets. */
type ElicitationPolicy = Pick<
  ServerConfig,
  | 'elicitationTimeoutMs'
  | 'elicitationMode'
  | 'ratePerMinute'
  | 'maxPending'
  | 'refuseSecrets'
  | 'unsolicitedUser'
  | 'maxRounds'
>;

/** Server entry `key`'s `elicitation` policy: how long people have, whether they are asked, how often. */
export function readElicitation(key: string, elicitation: unknown): ElicitationPolicy {
  const policy = {
    elicitationTimeoutMs: DEFAULT_ELICITATION_TIMEOUT_MS,
    elicitationMode: 'form' as const,
    ...readFloodLimits(key, {}),
  };
  if (elicitation === undefined) return policy;
  if (!isRecord(elicitation))
    throw new ConfigError(
      `${key}.elicitation`,
      'is not a mapping',
      'Write `elicitation: { timeout: "10m" }`.',
    );
  refuseUnknownKeys(`${key}.elicitation`, elicitation, KNOWN_KEYS.elicitation);
  return {
    elicitationTimeoutMs: readTimeout(key, elicitation.timeout),
    elicitationMode: readMode(key, elicitation.mode),
    ...readFloodLimits(key, elicitation),
    ...(readSecrets(key, elicitation.secrets) ? { refuseSecrets: true } : {}),
    ...(elicitation.unsolicited === undefined
      ? {}
      : { unsolicitedUser: readUnsolicited(`${key}.elicitation.unsolicited`, elicitation.unsolicited) }),
    ...(elicitation.maxRounds === undefined
      ? {}
      : {
          maxRounds: readCount(
            `${key}.elicitation.maxRounds`,
            elicitation.maxRounds,
            'Give how many times one call may be sent again with answers, e.g. 10.',
          ),
        }),
  };
}

/**
 * `ratePerMinute` and `maxPending`, defaulting to DEFAULT_RATE_PER_MINUTE and DEFAULT_MAX_PENDING; an explicit
 * `null` means unlimited (the key is then absent from the config).
 */
function readFloodLimits(
  key: string,
  elicitation: Record<string, unknown>,
): Pick<ServerConfig, 'ratePerMinute' | 'maxPending'> {
  const { ratePerMinute = DEFAULT_RATE_PER_MINUTE, maxPending = DEFAULT_MAX_PENDING } = elicitation;
  return {
    ...(ratePerMinute === null
      ? {}
      : {
          ratePerMinute: readCount(
            `${key}.elicitation.ratePerMinute`,
            ratePerMinute,
            'Give the most new questions this server may ask per minute, e.g. 30, or null for no limit.',
          ),
        }),
    ...(maxPending === null
      ? {}
      : {
          maxPending: readCount(
            `${key}.elicitation.maxPending`,
            maxPending,
            'Give the most questions of this server that may wait for an answer at once, e.g. 20, or null for no limit.',
          ),
        }),
  };
}

/** `unsolicited: { user: "U…" }`: the Slack user who gets elicitations no tool call caused. */
function readUnsolicited(key: string, unsolicited: unknown): string {
  if (isRecord(unsolicited)) refuseUnknownKeys(key, unsolicited, KNOWN_KEYS.unsolicited);
  const user = isRecord(unsolicited) ? unsolicited.user : undefined;
  if (typeof user !== 'string' || !/^[UW][A-Z0-9]+$/.test(user)) {
    throw new ConfigError(
      key,
      `${JSON.stringify(unsolicited)} does not name a Slack user`,
      'Write `unsolicited: { user: "U0123ABCD" }` (a Slack user id), or leave it out to refuse such elicitations.',
    );
  }
  return user;
}

function readTimeout(key: string, timeout: unknown): number {
  if (timeout === undefined) return DEFAULT_ELICITATION_TIMEOUT_MS;
  const ms = parseDuration(timeout);
  if (ms === undefined || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw new ConfigError(
      `${key}.elicitation.timeout`,
      `${JSON.stringify(timeout)} is not a duration between 1s and 30d`,
      'Use a duration such as "90s", "10m", "2h" or a number of milliseconds.',
    );
  }
  return ms;
}

const MODES = ['form', 'decline', 'off'] as const;

function readMode(key: string, mode: unknown): ServerConfig['elicitationMode'] {
  if (mode === undefined) return 'form';
  const found = MODES.find((m) => m === mode);
  if (!found) {
    throw new ConfigError(
      `${key}.elicitation.mode`,
      `${JSON.stringify(mode)} is not a mode`,
      'Use "form" (ask people), "decline" (answer decline without asking) or "off" (do not offer elicitation).',
    );
  }
  return found;
}

/** `secrets: warn` (default) shows a warning on fields that look like secrets; `refuse` answers -32602. */
function readSecrets(key: string, secrets: unknown): boolean {
  if (secrets === undefined || secrets === 'warn') return false;
  if (secrets === 'refuse') return true;
  throw new ConfigError(
    `${key}.elicitation.secrets`,
    `${JSON.stringify(secrets)} is not a choice`,
    'Use "warn" (show a warning on fields that look like passwords or tokens) or "refuse" (answer such forms with an error).',
  );
}

/** `ratePerMinute` (new questions per minute) and `maxPending` (questions open at once): whole numbers ≥ 1. */
function readCount(key: string, count: unknown, fix: string): number {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new ConfigError(key, `${JSON.stringify(count)} is not a positive whole number`, fix);
  }
  return count;
}
