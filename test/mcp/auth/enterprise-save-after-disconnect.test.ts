// An enterprise-managed server's access token (enterprise.ts) is saved by compare-and-set on the grant as its
// exchange read it: a `/mcp disconnect` while the exchange is in flight stays a disconnect (for a person's first
// token as for a renewed one), and a newer token saved meanwhile is not overwritten by the older exchange's.
// The SDK's own auth() runs each exchange through an EnterpriseSession's provider; the test acts when the
// authorization server's answer (the JWT-bearer grant) is on its way back. Against the local IdP, authorization
// server and tracker of test/fixtures/enterprise-idp.ts, on real Redis under this file's own prefix.
import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EnterpriseSession,
  type EnterpriseSignIns,
  type Person,
  type TokenVault,
  type VaultConnections,
} from '../../../src/mcp/index.js';
import type { EnterpriseFixture } from '../../fixtures/enterprise-idp.js';
import { startEnterpriseBot, type EnterpriseBot } from './enterprise-bot.js';
import { SERVER, type WakesOnRedis } from './support.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

let bot: EnterpriseBot;
let fixture: EnterpriseFixture;
let onRedis: WakesOnRedis;
let vault: TokenVault;
let signIns: EnterpriseSignIns;
let connections: VaultConnections;

beforeAll(async () => {
  bot = await startEnterpriseBot();
  ({ fixture, onRedis, vault, signIns, connections } = bot);
});

afterAll(() => bot.close());

/** `/mcp connect` and approval at the company IdP as `subject`. */
async function signIn(person: Person, subject: string): Promise<void> {
  const need = await connections.begin(SERVER, person);
  const q = fixture.approve(need.authorizationUrl, subject).searchParams;
  await connections.complete({ state: q.get('state') ?? '', code: q.get('code') ?? '' });
}

/** One exchange for the person's access token; `meanwhile` runs once the authorization server answered it. */
async function exchange(person: Person, meanwhile: () => Promise<unknown> = () => Promise.resolve()) {
  const session = new EnterpriseSession({ signIns, vault, wakes: onRedis.wakes }, SERVER, person, true);
  let answered = '';
  const fetchFn: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (!(init?.body instanceof URLSearchParams) || init.body.get('grant_type') !== JWT_BEARER)
      return response;
    answered = ((await response.clone().json()) as { access_token: string }).access_token;
    await meanwhile();
    return response;
  };
  expect(await auth(session.provider, { serverUrl: fixture.mcpUrl.href, fetchFn })).toBe('AUTHORIZED');
  return answered;
}

const held = async (person: Person) => (await vault.storage(SERVER, person).load()).tokens?.access_token;

describe('an enterprise access token whose exchange was in flight', () => {
  it('is not saved after the person disconnected meanwhile: their first token', async () => {
    const ann = { teamId: 'T1', userId: 'UANN' };
    await signIn(ann, 'ann@corp.example');
    await exchange(ann, () => connections.disconnect(SERVER, ann));
    expect(
      await held(ann),
      'a disconnect made while the token was on its way stays a disconnect',
    ).toBeUndefined();
  });

  it('is not saved after the person disconnected meanwhile: a renewed token', async () => {
    const bob = { teamId: 'T1', userId: 'UBOB' };
    await signIn(bob, 'bob@corp.example');
    expect(await held(bob)).toBe(undefined);
    const first = await exchange(bob);
    expect(await held(bob)).toBe(first);
    await exchange(bob, () => connections.disconnect(SERVER, bob));
    expect(
      await held(bob),
      'a disconnect made while the token was on its way stays a disconnect',
    ).toBeUndefined();
    expect(await connections.list(bob)).toEqual([]);
  });

  it('does not overwrite a newer token saved meanwhile', async () => {
    const cat = { teamId: 'T1', userId: 'UCAT' };
    await signIn(cat, 'cat@corp.example');
    let newer = '';
    await exchange(cat, async () => (newer = await exchange(cat)));
    expect(newer).not.toBe('');
    expect(await held(cat), 'the exchange that finished last keeps its token').toBe(newer);
  });
});
