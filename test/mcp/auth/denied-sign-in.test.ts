// A person who refuses at the authorization server's consent page (Deny): the call waiting for that sign-in ends
// at once (SignInError denied, announced over the sign-in wakes), and the spent Connect link, tried again, says
// it can no longer be used rather than that the sign-in completed. Against the sandbox's authorization server,
// the protected tracker fixture and real Redis (the shared auth fixture, its own key prefix, deleted
// afterwards), and the bot's real callback route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_PATH } from '../../../src/slack/sign-in-links.js';
import { SignInBrowser } from '../../support/sign-in-browser.js';
import { startSignInPages, waitingHub, type SignInPages } from './sign-in-wait.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

let fixture: AuthFixture;
let replica: AuthReplica;
let pages: SignInPages;

beforeAll(async () => {
  fixture = await startAuthFixture();
  replica = await fixture.replica();
  pages = await startSignInPages(replica);
});

afterAll(async () => {
  await pages.close();
  await fixture.close();
});

/** The person's browser: it opens the Connect link (the bot's start page) and clicks Continue. */
const browser = new SignInBrowser();

describe('a sign-in the person refuses at the consent page', () => {
  it('ends the call that was waiting for it, at once and saying so, instead of leaving it "Running…" for the whole wait', async () => {
    // The wait a call gets for a sign-in (10 minutes in the bot; 20 s here).
    const { hub, firstPrompt } = waitingHub(fixture, replica, 20_000);
    try {
      const call = hub
        .callTool({ server: SERVER, tool: 'whoami', args: {}, origin: { teamId: 'T1', userId: 'UDENY' } })
        .then(
          () => 'ran',
          (error: unknown) => (error as { code?: string }).code ?? String(error),
        );
      const need = await firstPrompt();
      const page = await browser.openFor(pages.base, need.authorizationUrl);
      const refused = await fixture.oauth.decide(page, 'deny@example.com', 'deny');
      expect((await pages.land(refused)).code).toBe('denied');
      const within3s = await Promise.race([
        call,
        new Promise((r) => setTimeout(() => r('still waiting'), 3_000)),
      ]);
      expect(
        within3s,
        'the person said no at the authorization server and the bot was told so on its callback: the call waiting ' +
          'for that sign-in should end now (SignInError denied), not hang until the sign-in wait runs out',
      ).toBe('denied');
      await call;
    } finally {
      await hub.close();
    }
  });

  it('does not tell a person who tries their Connect button again after refusing that the sign-in "was already completed"', async () => {
    const person = { teamId: 'T1', userId: 'UAGAIN' };
    // The Connect message's link (here from /mcp connect; a waiting call's DM links the same way).
    const need = await replica.connections.begin(SERVER, person);
    const refused = await fixture.oauth.decide(
      await browser.openFor(pages.base, need.authorizationUrl),
      'again@example.com',
      'deny',
    );
    expect((await pages.land(refused)).code).toBe('denied');
    // Refused by mistake: the person goes back to Slack, where the Connect button is still there, and approves.
    const again = await fetch(
      `${pages.base}${START_PATH}?state=${need.authorizationUrl.searchParams.get('state')}`,
    );
    expect(again.status, 'the spent link is refused at its start page already').toBe(400);
    const approved = await fixture.oauth.decide(need.authorizationUrl, 'again@example.com', 'allow');
    const page = await pages.land(approved);
    expect(await replica.connections.list(person)).toEqual([]);
    expect(
      page.text,
      'the person never connected (they refused, then the link was spent): the page must not say the sign-in ' +
        '"was already completed"; it should say the link can no longer be used and to run /mcp connect for a new one',
    ).not.toMatch(/already completed/);
    expect(page).toMatchObject({ status: 400, code: 'state_spent' });
    expect(page.text).toMatch(/can no longer be used.*\/mcp connect/);
  });
});
