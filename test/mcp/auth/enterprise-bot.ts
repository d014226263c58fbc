// The bot's side of the enterprise-managed tests (SEP-990) on real Redis: the enterprise fixture (the company IdP,
// MCP authorization server and tracker of test/fixtures/enterprise-idp.ts), sign-in wakes and a vault on the
// fixture's clock under a key prefix of its own, people's grants, the sign-ins to the tracker as SERVER, and the
// connections over them.
import {
  EnterpriseSignIns,
  McpHub,
  PersonAuth,
  VaultConnections,
  type EnterpriseServer,
  type McpLogger,
  type PersonGrants,
  type SignInPrompter,
  type TokenVault,
} from '../../../src/mcp/index.js';
import {
  AS_CLIENT,
  IDP_CLIENT,
  startEnterprise,
  type EnterpriseFixture,
} from '../../fixtures/enterprise-idp.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { uniquePrefix } from '../../setup/context.js';
import { REDIRECT, SERVER, startWakes, testGrants, testVault, type WakesOnRedis } from './support.js';

export interface EnterpriseBot {
  fixture: EnterpriseFixture;
  prefix: string;
  onRedis: WakesOnRedis;
  /** The fixture's clock (epoch ms), which a test moves on (`fixture.skewMs`). */
  now: () => number;
  vault: TokenVault;
  grants: PersonGrants;
  signIns: EnterpriseSignIns;
  connections: VaultConnections;
  /** Stops the wakes and the fixture, then deletes the prefix's keys. */
  close(): Promise<void>;
}

export interface EnterpriseBotOptions {
  /** The fetch the IdP sign-in is given, made once the fixture is up (a test plays an IdP outage with it). */
  fetchFor?: (fixture: EnterpriseFixture) => typeof fetch;
  /** Hears the connections' warnings (a revocation that failed). */
  logger?: McpLogger;
}

export async function startEnterpriseBot(options: EnterpriseBotOptions = {}): Promise<EnterpriseBot> {
  const fixture = await startEnterprise();
  const prefix = uniquePrefix();
  const onRedis = await startWakes(prefix);
  const now = (): number => fixture.now();
  const vault = testVault(onRedis.redis, prefix, now);
  const grants = testGrants(vault, [], now);
  const fetchFn = options.fetchFor?.(fixture);
  const signIns = new EnterpriseSignIns([trackerOf(fixture)], {
    vault,
    redirectUrl: REDIRECT,
    now,
    ...(fetchFn === undefined ? {} : { fetchFn }),
  });
  const { wakes } = onRedis;
  const logger = options.logger === undefined ? {} : { logger: options.logger };
  const connections = new VaultConnections({ grants, vault, wakes, now, ...logger, enterprise: signIns });
  const close = async (): Promise<void> => {
    await onRedis.close();
    await fixture.close();
    await deleteUnder(prefix);
  };
  return { fixture, prefix, onRedis, now, vault, grants, signIns, connections, close };
}

/**
 * The MCP hub with the fixture's tracker as SERVER (over HTTP; an elicitation is declined), each person signing
 * in through the bot's enterprise sign-ins, prompted by `prompter`; `waitMs`: how long a call waits for a
 * sign-in (default PersonAuth's).
 */
export function enterpriseHub(
  bot: EnterpriseBot,
  options: { prompter: SignInPrompter; logger?: McpLogger; waitMs?: number },
): McpHub {
  const { grants, signIns, vault } = bot;
  const { prompter, logger, waitMs } = options;
  return new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url: bot.fixture.mcpUrl.href, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    auth: new PersonAuth({
      grants,
      wakes: bot.onRedis.wakes,
      prompter,
      enterprise: { signIns, vault },
      ...(waitMs === undefined ? {} : { waitMs }),
    }),
    ...(logger === undefined ? {} : { logger }),
  });
}

/** The fixture's tracker as an enterprise-managed server named SERVER: its authorization server and IdP. */
function trackerOf(fixture: EnterpriseFixture): EnterpriseServer {
  return {
    name: SERVER,
    url: fixture.mcpUrl.href,
    clientId: AS_CLIENT.id,
    clientSecret: AS_CLIENT.secret,
    issuer: fixture.asIssuer,
    idp: { issuer: fixture.idpIssuer, clientId: IDP_CLIENT.id, clientSecret: IDP_CLIENT.secret },
  };
}
