// A sign-in whose code the authorization server refuses at the bot's callback (token_exchange_failed: a code
// expired or already used): the Connect link is spent then (its state consumed), so no callback of it will wake
// the call waiting for it. That call ends at once, on whichever replica it waits, saying the sign-in did not
// complete and how to connect again, as a sign-in denied at the consent page does (denied-sign-in.test.ts),
// rather than staying "Running…" until its wait runs out. Against the sandbox's authorization server, the
// protected tracker fixture and real Redis (the shared auth fixture, its own key prefix, deleted afterwards), and
// the bot's real callback route on another replica than the call's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInError } from '../../../src/mcp/index.js';
import { SignInBrowser } from '../../support/sign-in-browser.js';
import { startSignInPages, waitingHub, type SignInPages } from './sign-in-wait.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

let fixture: AuthFixture;
/** Where the call runs and waits for the sign-in. */
let calling: AuthReplica;
/** Where the person's browser lands on the callback. */
let landing: AuthReplica;
let pages: SignInPages;

beforeAll(async () => {
  fixture = await startAuthFixture();
  calling = await fixture.replica();
  landing = await fixture.replica();
  pages = await startSignInPages(landing);
});

afterAll(async () => {
  await pages.close();
  await fixture.close();
});

const browser = new SignInBrowser();

describe('a sign-in whose code the authorization server refuses at the callback', () => {
  it('ends the call waiting for it with token_exchange_failed, saying how to connect again, not sign_in_timeout', async () => {
    // The wait a call gets for a sign-in (10 minutes in the bot; 20 s here): on the code before the fix the
    // call ends only when it runs out, with sign_in_timeout.
    const { hub, firstPrompt } = waitingHub(fixture, calling, 20_000);
    try {
      const call = hub
        .callTool({ server: SERVER, tool: 'whoami', args: {}, origin: { teamId: 'T1', userId: 'UCODE' } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const need = await firstPrompt();
      const approved = await fixture.oauth.decide(
        await browser.openFor(pages.base, need.authorizationUrl),
        'code@example.com',
        'allow',
      );
      // The code the browser comes back with is one the authorization server no longer takes (expired).
      approved.searchParams.set('code', 'expired-code');
      expect((await pages.land(approved)).code).toBe('token_exchange_failed');
      const ended = await call;
      expect(ended, 'the call should fail, never run: the person never connected').toBeInstanceOf(
        SignInError,
      );
      expect(
        ended,
        'the Connect link was spent by a callback whose code was refused: the call waiting for it should end ' +
          'now with token_exchange_failed, not stay "Running…" until its sign-in wait runs out',
      ).toMatchObject({ code: 'token_exchange_failed', server: SERVER });
      expect(ended instanceof SignInError ? ended.message : String(ended)).toMatch(
        /did not complete.*\/mcp connect tracker/,
      );
      expect(await landing.connections.list({ teamId: 'T1', userId: 'UCODE' })).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
