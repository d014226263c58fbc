// The Automations API's settings: its clients (ELICIT_RELAY_API_TOKEN is the `default` client with every right;
// `api.clients.<name>` in the config file adds more, each with its own token, servers, targets and rate, none
// named `default`) and the webhook settings (ELICIT_RELAY_WEBHOOK_HOSTS, ELICIT_RELAY_WEBHOOK_SECRET). No client:
// the API is off.
import { parseDuration } from './duration.js';
import { ConfigError } from './error.js';
import { KNOWN_KEYS, refuseUnknownKeys } from './known-keys.js';
import { expand } from './expand.js';
import { isRecord } from './mapping.js';
import type { ApiClientConfig, ApiConfig } from './types.js';
import { notTextProblem } from './text-settings.js';
import { readHostEntry, webhookHostsError } from './webhook-hosts.js';

type Env = Record<string, string | undefined>;

/** The client ELICIT_RELAY_API_TOKEN stands for. */
export const DEFAULT_API_CLIENT = 'default';

export function readApi(file: unknown, env: Env): ApiConfig {
  const api = readSection(isRecord(file) ? file.api : undefined);
  const clients = readClients(api, env);
  const token = env.ELICIT_RELAY_API_TOKEN;
  if (token) clients.unshift({ name: DEFAULT_API_CLIENT, token });
  checkDistinctTokens(clients);
  const secret = env.ELICIT_RELAY_WEBHOOK_SECRET;
  const gateway = readGatewayAs(api);
  const retryBaseMs = readMs('ELICIT_RELAY_WEBHOOK_RETRY_BASE', env.ELICIT_RELAY_WEBHOOK_RETRY_BASE);
  const redeliverAfterMs = readMs('ELICIT_RELAY_REDELIVER_AFTER', env.ELICIT_RELAY_REDELIVER_AFTER);
  return {
    clients,
    ...(gateway ? { gatewayAs: gateway.user } : {}),
    ...(gateway?.team === undefined ? {} : { gatewayTeam: gateway.team }),
    webhookHosts: readHosts(env.ELICIT_RELAY_WEBHOOK_HOSTS),
    ...(secret ? { webhookSecret: secret } : {}),
    ...(retryBaseMs === undefined ? {} : { webhookRetryBaseMs: retryBaseMs }),
    ...(redeliverAfterMs === undefined ? {} : { redeliverAfterMs }),
  };
}

/** An optional duration setting in ms (at least 100 ms: a sweep or retry loop must not spin). */
function readMs(key: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms < 100) {
    throw new ConfigError(
      key,
      `"${value}" is not a duration of at least 100ms`,
      'Write e.g. "10s" or "500ms".',
    );
  }
  return ms;
}

/** The `api` section with known settings only; an empty mapping when absent. */
function readSection(api: unknown): Record<string, unknown> {
  if (api === undefined || api === null) return {};
  if (!isRecord(api)) throw new ConfigError('api', 'is not a mapping', 'Write `api: { clients: { … } }`.');
  refuseUnknownKeys('api', api, KNOWN_KEYS.api);
  return api;
}

function readClients(api: Record<string, unknown>, env: Env): ApiClientConfig[] {
  const clients = api.clients;
  if (clients === undefined || clients === null) return [];
  if (!isRecord(clients)) {
    throw new ConfigError(
      'api.clients',
      'is not a mapping',
      'Write one entry per client: `name: { token: … }`.',
    );
  }
  return Object.entries(clients).map(([name, entry]) => readClient(name, entry, env));
}

function readClient(name: string, entry: unknown, env: Env): ApiClientConfig {
  const key = `api.clients.${name}`;
  checkName(key, name);
  if (!isRecord(entry)) throw new ConfigError(key, 'is not a mapping', 'Give it `token: ${SOME_VAR}`.');
  refuseUnknownKeys(key, entry, KNOWN_KEYS.client);
  if (typeof entry.token !== 'string' || entry.token === '') {
    throw new ConfigError(
      `${key}.token`,
      notTextProblem(entry.token),
      'Write `token: ${SOME_VAR}` and set SOME_VAR in the environment.',
    );
  }
  const servers = readList(`${key}.servers`, entry.servers, env);
  const targets = readList(`${key}.targets`, entry.targets, env);
  const rate = entry.ratePerMinute;
  if (rate !== undefined && !(typeof rate === 'number' && Number.isInteger(rate) && rate > 0)) {
    throw new ConfigError(
      `${key}.ratePerMinute`,
      `${JSON.stringify(rate)} is not a positive integer`,
      'Write a number such as 60.',
    );
  }
  const as = entry.as === undefined ? undefined : readPerson(`${key}.as`, entry.as);
  return {
    name,
    token: expand(`${key}.token`, entry.token, env),
    ...(as ? { as: as.user } : {}),
    ...(as?.team === undefined ? {} : { asTeam: as.team }),
    ...(servers ? { servers } : {}),
    ...(targets ? { targets } : {}),
    ...(typeof rate === 'number' ? { ratePerMinute: rate } : {}),
  };
}

function checkName(key: string, name: string): void {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new ConfigError(
      key,
      'has a name with characters that are not allowed',
      'Use 1–64 letters, digits, ".", "_" or "-".',
    );
  }
  // The name stands for every right (GET /audit reads every client's events by it, src/api/audit.ts): only the
  // client ELICIT_RELAY_API_TOKEN makes may have it, whether the env sets it or not and whatever limits the
  // file's client was given.
  if (name === DEFAULT_API_CLIENT) {
    throw new ConfigError(
      key,
      "is the name of ELICIT_RELAY_API_TOKEN's client, which has every right",
      'Rename the client in the file (its limits then apply); for a client with every right, set ELICIT_RELAY_API_TOKEN.',
    );
  }
}

/** `api.gateway.as`: the person a gateway tool call at POST /mcp runs for, unless its client names its own. */
function readGatewayAs(api: Record<string, unknown>): GatewayPerson | undefined {
  const { gateway } = api;
  if (gateway === undefined) return undefined;
  if (isRecord(gateway)) refuseUnknownKeys('api.gateway', gateway, KNOWN_KEYS.gateway);
  if (!isRecord(gateway) || gateway.as === undefined) {
    throw new ConfigError('api.gateway', 'does not name a person', 'Write `gateway: { as: "U0123ABCD" }`.');
  }
  return readPerson('api.gateway.as', gateway.as);
}

interface GatewayPerson {
  user: string;
  team?: string;
}

/** A gateway person: "U…", or `{ user: "U…", team: "T…" }` (their workspace, when the bot serves several). */
function readPerson(key: string, value: unknown): GatewayPerson {
  if (!isRecord(value)) return { user: readUser(key, value) };
  refuseUnknownKeys(key, value, KNOWN_KEYS.person);
  const user = readUser(`${key}.user`, value.user);
  if (value.team === undefined) return { user };
  if (typeof value.team === 'string' && /^T[A-Z0-9]{1,20}$/.test(value.team))
    return { user, team: value.team };
  throw new ConfigError(
    `${key}.team`,
    `${JSON.stringify(value.team)} is not a Slack team id`,
    'Write the workspace id, such as "T0123ABCD".',
  );
}

/**
 * In a bot installed in several Slack workspaces each gateway person names their workspace: a gateway call
 * that names nobody runs as them there, and POST /mcp lists a gateway server they sign in to with their grant,
 * which is kept per workspace (without one the server's tools could not be listed).
 */
export function checkGatewayTeams(api: ApiConfig, severalWorkspaces: boolean): void {
  if (!severalWorkspaces) return;
  const people = [
    ...(api.gatewayAs !== undefined && api.gatewayTeam === undefined ? ['api.gateway.as'] : []),
    ...api.clients
      .filter((c) => c.as !== undefined && c.asTeam === undefined)
      .map((c) => `api.clients.${c.name}.as`),
  ];
  const [key] = people;
  if (key === undefined) return;
  throw new ConfigError(
    `${key}.team`,
    'is missing: this bot is installed in several Slack workspaces, and a person is one in each',
    'Write `as: { user: "U0123ABCD", team: "T0123ABCD" }`.',
  );
}

function readUser(key: string, value: unknown): string {
  if (typeof value === 'string' && /^[UW][A-Z0-9]{1,20}$/.test(value)) return value;
  throw new ConfigError(
    key,
    `${JSON.stringify(value)} is not a Slack user id`,
    'Write a user id such as "U0123ABCD".',
  );
}

/** A list of names, each entry's `${VAR}` expanded as every other value of the file is. */
function readList(key: string, value: unknown, env: Env): string[] | undefined {
  if (value === undefined) return undefined;
  const names: unknown = Array.isArray(value)
    ? value.map((v: unknown, i) => (typeof v === 'string' ? expand(`${key}[${i}]`, v, env) : v))
    : value;
  if (!Array.isArray(names) || !names.every((v): v is string => typeof v === 'string' && v !== '')) {
    throw new ConfigError(key, 'is not a list of names', 'Write a list such as ["github", "deploy"].');
  }
  return names;
}

/** Two clients with one token could not be told apart. */
function checkDistinctTokens(clients: ApiClientConfig[]): void {
  const seen = new Map<string, string>();
  for (const client of clients) {
    const other = seen.get(client.token);
    if (other !== undefined) {
      throw new ConfigError(
        `api.clients.${client.name}.token`,
        `is the same as ${other}'s`,
        'Give every client its own token.',
      );
    }
    seen.set(client.token, client.name);
  }
}

/**
 * ELICIT_RELAY_WEBHOOK_HOSTS: comma-separated entries, lower-cased. Each is read as a callbackUrl's host is
 * (webhook-hosts.ts, which src/webhooks/hosts.ts reads them with too): one no callbackUrl could name stops
 * start-up, naming it and why.
 */
function readHosts(value: string | undefined): string[] {
  if (!value) return [];
  const entries = value
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const bad = entries.find((entry) => 'why' in readHostEntry(entry));
  if (bad !== undefined) throw webhookHostsError(bad);
  return entries.map((entry) => entry.toLowerCase());
}
