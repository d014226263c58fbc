// Enterprise-managed servers (SEP-990): a person's IdP sign-in when the company IdP has a passing outage (HTTP
// 503 from its token endpoint) just as their ID token needs refreshing is kept (idp.ts); the call fails
// idp_unavailable, the next one goes on. Against the enterprise fixture (IdP, MCP authorization server and
// tracker of test/fixtures/enterprise-idp.ts) and real Redis under this file's own prefix (deleted afterwards).
// The outage is played by the fetch the IdP sign-in is given (IdpSignInDeps.fetchFn), as a gateway in front of
// the IdP would answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHub, SignInNeeded, VaultConnections } from '../../../src/mcp/index.js';
import type { EnterpriseFixture } from '../../fixtures/enterprise-idp.js';
import { enterpriseHub, startEnterpriseBot, type EnterpriseBot } from './enterprise-bot.js';
import { SERVER } from './support.js';

const HOUR_MS = 3600_000;
const ANN = { teamId: 'T1', userId: 'UANN' };

let bot: EnterpriseBot;
let fixture: EnterpriseFixture;
let connections: VaultConnections;
let hub: McpHub;
let idpDown = false;
const prompts: SignInNeeded[] = [];

beforeAll(async () => {
  // The IdP's token endpoint answers 503 while `idpDown` (its discovery document is read once, before).
  const fetchFor =
    (idp: EnterpriseFixture): typeof fetch =>
    (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (idpDown && url.startsWith(idp.idpIssuer) && url.endsWith('/token'))
        return Promise.resolve(new Response('upstream unavailable', { status: 503 }));
      return fetch(input, init);
    };
  bot = await startEnterpriseBot({ fetchFor });
  ({ fixture, connections } = bot);
  const prompter = {
    prompt: (need: SignInNeeded) => {
      prompts.push(need);
      return Promise.resolve();
    },
  };
  hub = enterpriseHub(bot, { prompter, waitMs: 1_000 });
});

afterAll(async () => {
  await hub.close();
  await bot.close();
});

const whoami = () =>
  hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin: ANN }).then(
    (result) => result.text,
    (error: unknown) => `failed: ${(error as { code?: string }).code ?? String(error)}`,
  );

async function nextPrompt(): Promise<SignInNeeded> {
  for (let i = 0; i < 200 && prompts.length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
  const need = prompts.shift();
  if (need === undefined) throw new Error('no Connect message');
  return need;
}

describe('an IdP sign-in when the company IdP is briefly unavailable', () => {
  it('is kept: a 503 while refreshing the ID token does not delete it nor ask the person to connect again', async () => {
    const first = whoami();
    const need = await nextPrompt();
    const callback = fixture.approve(need.authorizationUrl, 'ann@corp.example');
    await connections.complete({
      state: callback.searchParams.get('state') ?? '',
      code: callback.searchParams.get('code') ?? '',
    });
    expect(await first).toBe('ann@corp.example');

    // Two hours on, the ID token and the access token have expired; the IdP answers 503 for a moment.
    fixture.skewMs += 2 * HOUR_MS;
    fixture.dropAccessTokens();
    idpDown = true;
    const during = await whoami();
    idpDown = false;
    const afterOutage = await whoami();

    const listed = (await connections.list(ANN)).map((c) => c.server);
    expect(
      { listed, prompts: prompts.map((p) => p.reason), afterOutage },
      "a passing IdP outage (503, not invalid_grant) must not throw away the person's IdP sign-in and DM them " +
        `"Your sign-in has expired. Connect again"; once the IdP is back the call runs (the call during the outage: ${during})`,
    ).toEqual({ listed: [SERVER], prompts: [], afterOutage: 'ann@corp.example' });
  });
});
