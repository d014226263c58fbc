// Enterprise-managed authorization (SEP-990, `auth.mode: enterpriseManaged`) on real Redis, against the local
// company IdP, MCP authorization server and tracker of test/fixtures/enterprise-idp.ts: a person's first call
// sends them to sign in to the IdP (once), the callback seals the IdP's tokens, and the call goes on with an
// access token got by exchanging their ID token for an ID-JAG; each person their own; an expired ID token is
// refreshed; a refused exchange asks to connect again; API calls fail not_connected; no token is logged nor
// kept in clear in Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHub, type SignInNeeded, type VaultConnections } from '../../../src/mcp/index.js';
import type { EnterpriseFixture } from '../../fixtures/enterprise-idp.js';
import { enterpriseHub, startEnterpriseBot, type EnterpriseBot } from './enterprise-bot.js';
import { SERVER, type WakesOnRedis } from './support.js';

const HOUR_MS = 3600_000;

let bot: EnterpriseBot;
let fixture: EnterpriseFixture;
let prefix: string;
let onRedis: WakesOnRedis;
let connections: VaultConnections;
let hub: McpHub;
const logged: string[] = [];
const prompts: SignInNeeded[] = [];
const listeners: ((need: SignInNeeded) => void)[] = [];

beforeAll(async () => {
  const logger = {
    debug: (obj: object, msg: string) => void logged.push(JSON.stringify(obj) + msg),
    warn: (obj: object, msg: string) => void logged.push(JSON.stringify(obj) + msg),
  };
  bot = await startEnterpriseBot({ logger });
  ({ fixture, prefix, onRedis, connections } = bot);
  const prompter = {
    prompt: (need: SignInNeeded) => {
      prompts.push(need);
      for (const listener of listeners.splice(0)) listener(need);
      return Promise.resolve();
    },
  };
  hub = enterpriseHub(bot, { prompter, logger });
});

afterAll(async () => {
  await hub.close();
  await bot.close();
});

const whoami = (userId: string, callId?: string) =>
  hub.callTool({
    server: SERVER,
    tool: 'whoami',
    args: {},
    origin: { teamId: 'T1', userId, ...(callId === undefined ? {} : { callId }) },
  });

/** The next Connect message (already posted, or the next one to come). */
function nextPrompt(): Promise<SignInNeeded> {
  const posted = prompts.shift();
  if (posted !== undefined) return Promise.resolve(posted);
  return new Promise((resolve) => listeners.push(() => resolve(prompts.shift() ?? posted!)));
}

/** The person approves at the IdP as `subject`; the bot's callback route completes the sign-in. */
async function signIn(subject: string): Promise<SignInNeeded> {
  const need = await nextPrompt();
  const callback = fixture.approve(need.authorizationUrl, subject);
  const q = callback.searchParams;
  await connections.complete({ state: q.get('state') ?? '', code: q.get('code') ?? '' });
  return need;
}

describe('enterprise-managed authorization (SEP-990) per person', () => {
  it('sends a person to sign in to the IdP once, then calls with a token got by exchange; another person gets their own', async () => {
    const ann = whoami('UANN');
    const need = await signIn('ann@corp.example');
    expect((await ann).text).toBe('ann@corp.example');
    expect(need).toMatchObject({ server: SERVER, reason: 'first', idp: fixture.idpIssuer });
    expect(need.authorizationUrl.origin).toBe(fixture.idpIssuer);
    expect(need.scopes).toEqual(['openid', 'offline_access']);
    expect(need.authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(fixture.grants).toEqual([
      'idp:authorization_code',
      'idp:urn:ietf:params:oauth:grant-type:token-exchange',
      'as:urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);
    const bob = whoami('UBOB');
    await signIn('bob@corp.example');
    expect((await bob).text).toBe('bob@corp.example');
    expect((await whoami('UANN')).text).toBe('ann@corp.example');
    expect(prompts).toEqual([]);
    expect((await connections.list({ teamId: 'T1', userId: 'UANN' })).map((c) => c.server)).toEqual([SERVER]);
  });

  it('refreshes an expired ID token at the IdP, without asking the person again', async () => {
    fixture.grants.length = 0;
    // Two hours on: the access token (1 h) and the ID token (1 h) have both expired.
    fixture.skewMs += 2 * HOUR_MS;
    expect((await whoami('UANN')).text).toBe('ann@corp.example');
    expect(fixture.grants).toEqual([
      'idp:refresh_token',
      'idp:urn:ietf:params:oauth:grant-type:token-exchange',
      'as:urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);
    expect(prompts).toEqual([]);
  });

  it('asks to connect again when the IdP refuses to exchange a live ID token, and the call goes on', async () => {
    fixture.revoke('ann@corp.example');
    fixture.dropAccessTokens();
    fixture.grants.length = 0;
    const ann = whoami('UANN');
    const need = await signIn('ann.again@corp.example');
    expect(need).toMatchObject({ server: SERVER, reason: 'revoked', idp: fixture.idpIssuer });
    expect((await ann).text).toBe('ann.again@corp.example');
    // No refresh: the ID token was live; its exchange was refused, then the new sign-in's was exchanged.
    expect(fixture.grants.filter((grant) => grant.startsWith('idp:'))).toEqual([
      'idp:urn:ietf:params:oauth:grant-type:token-exchange',
      'idp:authorization_code',
      'idp:urn:ietf:params:oauth:grant-type:token-exchange',
    ]);
  });

  it('asks a person whose expired ID token the IdP no longer refreshes to connect again, and their call goes on', async () => {
    fixture.revoke('bob@corp.example');
    fixture.skewMs += 2 * HOUR_MS;
    const bob = whoami('UBOB');
    const need = await signIn('bob.new@corp.example');
    expect(need).toMatchObject({ server: SERVER, reason: 'expired', idp: fixture.idpIssuer });
    expect((await bob).text).toBe('bob.new@corp.example');
  });

  it('fails an API call of a person with no IdP sign-in with not_connected, saying how to connect', async () => {
    await expect(whoami('UCAROL', 'call-1')).rejects.toMatchObject({ code: 'not_connected' });
    expect(prompts).toEqual([]);
  });

  it('disconnect deletes the IdP tokens and the access token: the next call asks to sign in again', async () => {
    expect(await connections.disconnect(SERVER, { teamId: 'T1', userId: 'UANN' })).toBe(true);
    expect(await connections.list({ teamId: 'T1', userId: 'UANN' })).toEqual([]);
    const ann = whoami('UANN');
    expect((await signIn('ann.third@corp.example')).reason).toBe('first');
    expect((await ann).text).toBe('ann.third@corp.example');
  });

  it('logs no token and keeps none in clear in Redis', async () => {
    expect(fixture.issued.length).toBeGreaterThan(10);
    const { redis } = onRedis;
    const keys = await redis.keys(`${prefix}:*`);
    const values = await Promise.all(
      keys.map((key) => redis.type(key).then((t) => (t === 'string' ? redis.get(key) : ''))),
    );
    const stored = values.join('\n');
    const text = logged.join('\n');
    for (const token of fixture.issued) {
      expect(text).not.toContain(token);
      expect(stored).not.toContain(token);
    }
  });
});
