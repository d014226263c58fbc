// Where the bot fetches Slack's signing keys, and how often (the review asked whether a request could make it fetch
// keys from elsewhere, or on every request). The keys URL is the origin of SLACK_API_URL (configuration) and
// nothing a request carries; the id_token whose `kid` could ask for a refetch comes from Slack's own code exchange
// (server to server, with the app's client secret), so a request with a made-up code fetches no keys, and sign-ins
// with Slack's current key fetch them once. Held; kept as a regression test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackIdentity } from '../../src/slack/sign-in-identity.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';

const APP = { clientId: '1111.4444', clientSecret: 'keys-fetch-secret' };
const ADA = { teamId: 'T0STANDIN', userId: 'U0ADA' };
const REDIRECT = 'https://bot.example.com/oauth/mcp/slack-identity';

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startSlackStandin({ botToken: 'xoxb-keys-fetch', oauth: APP });
});
afterAll(() => standin.close());

describe("Slack's keys are fetched only from SLACK_API_URL's origin, once, for Slack-issued tokens", () => {
  it('fetches none for made-up codes and once for several sign-ins, all at the configured origin', async () => {
    const asked: URL[] = [];
    const counting: typeof fetch = (input, init) => {
      asked.push(new URL(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const identity = new SlackIdentity({
      ...APP,
      apiUrl: standin.apiUrl,
      fetch: counting,
      clock: { now: Date.now },
    });
    const keysAsked = (): number => asked.filter((u) => u.pathname === '/openid/connect/keys').length;
    for (let i = 0; i < 5; i += 1)
      await expect(identity.identify(`T0STANDIN.made-up-${i}`, REDIRECT, 'n')).rejects.toMatchObject({
        code: 'identity_failed',
      });
    expect(keysAsked()).toBe(0);

    for (let i = 0; i < 3; i += 1) {
      const authorize = identity.authorizeUrl({ state: 's', nonce: `n${i}`, redirectUri: REDIRECT });
      const code = new URL(standin.openid.approve(authorize.href, ADA)).searchParams.get('code') ?? '';
      await expect(identity.identify(code, REDIRECT, `n${i}`)).resolves.toEqual(ADA);
    }
    expect(keysAsked()).toBe(1);
    expect(new Set(asked.map((u) => u.origin))).toEqual(new Set([new URL(standin.apiUrl).origin]));
  });
});
