// Sign-in to MCP servers that need it (issue #20), as the composition root builds it: the token vault on its
// own Redis connection, the subscriber that hears sign-ins completed on any replica, the Connections the
// Slack side uses (`/mcp connect|disconnect`, the App Home, the callback route), and, once the Slack side has
// made its prompter, the hub's McpAuth. Nothing is built when no server has `auth`.
import { readFile } from 'node:fs/promises';
import {
  servesSeveralWorkspaces,
  type AppConfig,
  type ServerConfig,
  type SignInConfig,
} from './config/index.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import {
  CALLBACK_PATH,
  EnterpriseSignIns,
  PersonAuth,
  PersonGrants,
  Sealer,
  SignInWakes,
  TokenVault,
  VaultConnections,
  type Connections,
  type DeploymentGrant,
  type EnterpriseServer,
  type McpAuth,
  type PersonSignInServer,
  type SignInPrompter,
} from './mcp/index.js';
import { RedisConnections, endClient, keys, type RedisClient } from './redis/index.js';

export interface SignIns {
  /** Per-person sign-ins; absent when no server has `auth.mode: oauth` or `enterpriseManaged`. */
  connections?: Connections;
  /** The hub's sign-in, given the Slack side's Connect prompter; undefined when no server has `auth`. */
  hubAuth(prompter: SignInPrompter | undefined): McpAuth | undefined;
  /** Whether `person` may call `server` without signing in first (API calls cannot prompt). */
  connected(server: string, person: { teamId: string; userId: string }): Promise<boolean>;
}

const NONE: SignIns = { hubAuth: () => undefined, connected: () => Promise.resolve(true) };

export async function openSignIns(
  config: AppConfig,
  who: { holderId: string; logger: Logger },
  parts: Lifecycle,
): Promise<SignIns> {
  const settings = config.signIn;
  if (settings === undefined) return NONE;
  const { redis, wakes } = await startWakes(config, who, parts);
  const now = Date.now;
  const vault = tokenVault(redis, { config, settings, now, logger: who.logger });
  const redirectUrl = `${settings.publicUrl ?? ''}${CALLBACK_PATH}`;
  const { grants, enterprise } = personSignIns(config, { vault, redirectUrl, now, logger: who.logger });
  const deploymentGrants = new Map(await Promise.all(config.servers.flatMap(deploymentGrant)));
  const connections =
    grants.names().length === 0 && enterprise.names().length === 0
      ? {}
      : { connections: new VaultConnections({ grants, vault, wakes, now, logger: who.logger, enterprise }) };
  return {
    ...connections,
    hubAuth: (prompter) =>
      new PersonAuth({
        grants,
        wakes,
        deploymentGrants,
        enterprise: { signIns: enterprise, vault },
        ...(prompter === undefined ? {} : { prompter }),
      }),
    connected: connectedTo(grants, enterprise),
  };
}

/**
 * What people sign in with, both over the vault: a grant per person for each `auth.mode: oauth` server, and
 * their one IdP sign-in for the `enterpriseManaged` ones.
 */
function personSignIns(
  config: AppConfig,
  deps: { vault: TokenVault; redirectUrl: string; now: () => number; logger: Logger },
): { grants: PersonGrants; enterprise: EnterpriseSignIns } {
  const { vault, redirectUrl, now } = deps;
  const grants = new PersonGrants({
    servers: config.servers.flatMap(personSignInServer),
    vault,
    redirectUrl,
    clientName: 'elicit-relay',
    oneWorkspace: !servesSeveralWorkspaces(config.slack),
    now,
    logger: deps.logger,
  });
  const enterprise = new EnterpriseSignIns(config.servers.flatMap(enterpriseServer), {
    vault,
    redirectUrl,
    now,
  });
  return { grants, enterprise };
}

/** The vault's command connection, and the subscriber that hears sign-ins completed on any replica. */
async function startWakes(
  config: AppConfig,
  who: { holderId: string; logger: Logger },
  parts: Lifecycle,
): Promise<{ redis: RedisClient; wakes: SignInWakes }> {
  const k = keys(config.redis.prefix);
  const factory = new RedisConnections(config.redis, who.logger);
  const redis = await factory.command(k.connectionName('auth', who.holderId));
  parts.push('sign-in connection', () => endClient(redis, true));
  const subscriber = await factory.blocking(k.connectionName('auth-wakes', who.holderId));
  parts.push('sign-in subscriber', () => endClient(subscriber, false));
  const wakes = new SignInWakes(subscriber, redis, `${config.redis.prefix}:auth:signed-in`);
  await wakes.start();
  parts.push('sign-in wakes', () => wakes.stop());
  return { redis, wakes };
}

/** The sealed token vault; a grant neither key opens is deleted (its person is asked to connect again). */
function tokenVault(
  redis: RedisClient,
  deps: { config: AppConfig; settings: SignInConfig; now: () => number; logger: Logger },
): TokenVault {
  const { settings, logger } = deps;
  const sealer = new Sealer(settings.tokenKey, settings.previousTokenKey);
  return new TokenVault(redis, deps.config.redis.prefix, sealer, deps.now, (key, code) =>
    logger.warn(
      { key, code },
      'a sealed grant opens with neither ELICIT_RELAY_TOKEN_KEY nor _PREVIOUS: deleted, its person will be asked to connect again',
    ),
  );
}

/** Whether a person holds a grant for a server that needs one (an enterprise server: their IdP sign-in). */
function connectedTo(grants: PersonGrants, enterprise: EnterpriseSignIns): SignIns['connected'] {
  return async (server, person) => {
    const who = grants.personOf(person);
    if (enterprise.has(server)) return (await enterprise.idpOf(server).connectedAt(who)) !== undefined;
    return !grants.has(server) || (await grants.record(server, who)).tokens !== undefined;
  };
}

function enterpriseServer(server: ServerConfig): EnterpriseServer[] {
  const { auth, transport } = server;
  if (auth?.mode !== 'enterpriseManaged' || transport.kind !== 'http') return [];
  const { clientId, clientSecret, scopes, idp, issuer } = auth;
  return [
    {
      name: server.name,
      url: transport.url,
      clientId,
      idp,
      ...(issuer === undefined ? {} : { issuer }),
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(scopes === undefined ? {} : { scopes }),
    },
  ];
}

function personSignInServer(server: ServerConfig): PersonSignInServer[] {
  const { auth, transport } = server;
  if (auth?.mode !== 'oauth' || transport.kind !== 'http') return [];
  const { clientId, clientSecret, scopes, tokenEndpointAuthMethod, metadataUrl } = auth;
  return [
    {
      name: server.name,
      url: transport.url,
      ...(clientId === undefined ? {} : { clientId }),
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(scopes === undefined ? {} : { scopes }),
      ...(tokenEndpointAuthMethod === undefined ? {} : { tokenEndpointAuthMethod }),
      ...(metadataUrl === undefined ? {} : { metadataUrl }),
    },
  ];
}

/**
 * A `clientCredentials` server's grant (its private key file is read once, at start-up), or a
 * `workloadIdentity` server's (its JWT file is read at each token request: the platform rotates it).
 */
function deploymentGrant(server: ServerConfig): Promise<[string, DeploymentGrant]>[] {
  const { auth } = server;
  const scopes = auth?.scopes === undefined ? {} : { scopes: auth.scopes };
  if (auth?.mode === 'workloadIdentity') {
    const { clientId, assertionFile } = auth;
    const assertion = async (): Promise<string> => (await readFile(assertionFile, 'utf8')).trim();
    return [Promise.resolve([server.name, { kind: 'workload', clientId, assertion, ...scopes }])];
  }
  if (auth?.mode !== 'clientCredentials') return [];
  const { clientId, clientSecret, privateKeyFile } = auth;
  if (privateKeyFile === undefined)
    return [
      Promise.resolve([
        server.name,
        { kind: 'secret', clientId, clientSecret: clientSecret ?? '', ...scopes },
      ]),
    ];
  return [
    readFile(privateKeyFile, 'utf8').then((privateKeyPem) => [
      server.name,
      { kind: 'jwt', clientId, privateKeyPem, algorithm: auth.signingAlgorithm ?? 'ES256', ...scopes },
    ]),
  ];
}
