// Attacks on the flow of Sign in with Slack at a Connect link that the review found held, kept as regression tests:
// one link's Slack callback with another link's state, Slack's callback replayed, a spent link's Slack callback,
// and markup in the query of the bot's sign-in pages (nothing of it comes back, no redirect is built from it).
import { describe, expect, it } from 'vitest';
import { CALLBACK_PATH } from '../../src/mcp/index.js';
import { IDENTITY_PATH, START_PATH } from '../../src/slack/sign-in-links.js';
import { CookieBrowser } from './cookie-browser.js';
import { MALLORY, useIdentityBot } from './slack-identity-harness.js';

const bot = useIdentityBot();

const codeOf = async (response: Response): Promise<string | undefined> =>
  /data-code="([^"]*)"/.exec(await response.text())?.[1];

describe('the Slack identity step refuses callbacks not made for it', () => {
  it("refuses a Slack callback whose state is swapped for another link's, in the same browser; both links go on", async () => {
    const { linkOf, signInWithSlack } = bot();
    const [first, second] = [await linkOf(), await linkOf()];
    const mallory = new CookieBrowser();
    const back = await signInWithSlack(mallory, first, MALLORY);
    await mallory.get(second);
    const swapped = new URL(back);
    swapped.searchParams.set('state', second.searchParams.get('state') ?? '');
    const mixed = await mallory.get(swapped);
    expect(mixed.status).toBe(403);
    expect(await codeOf(mixed)).toBe('identity_unbound');
    for (const link of [first, second]) {
      const again = await mallory.get(await signInWithSlack(mallory, link, MALLORY));
      expect(again.status).toBe(302);
    }
  });

  it("refuses Slack's callback replayed in the browser that used it: the code is spent at Slack", async () => {
    const { linkOf, signInWithSlack } = bot();
    const mallory = new CookieBrowser();
    const back = await signInWithSlack(mallory, await linkOf(), MALLORY);
    expect((await mallory.get(back)).status).toBe(302);
    const replay = await mallory.get(back);
    expect(replay.status).toBe(403);
    expect(await codeOf(replay)).toBe('identity_failed');
  });

  it('refuses a Slack callback held back until its link was used, as the callback refuses the link', async () => {
    const { linkOf, signInWithSlack, fixture, replica, atBot } = bot();
    const link = await linkOf();
    const held = new CookieBrowser();
    const heldBack = await signInWithSlack(held, link, MALLORY);
    const mallory = new CookieBrowser();
    const checked = await mallory.get(await signInWithSlack(mallory, link, MALLORY));
    const authorizationPage = new URL(checked.headers.get('location') ?? '');
    const landed = await mallory.get(
      atBot(await fixture.oauth.decide(authorizationPage, 'mallory@example.com')),
    );
    expect(landed.status).toBe(200);
    await replica.connections.disconnect('tracker', MALLORY);

    const late = await held.get(heldBack);
    expect(late.status).toBe(400);
    expect(await codeOf(late)).toBe('state_used');
    expect(late.headers.getSetCookie()).toEqual([]);
  });
});

describe('the sign-in pages echo nothing of their query and redirect nowhere it names', () => {
  it.each([START_PATH, IDENTITY_PATH, CALLBACK_PATH])('%s', async (path) => {
    const { atBot } = bot();
    const markup = '"><script>alert(1)</script><img src=x>';
    const url = atBot(`https://bot.example.com${path}`);
    for (const [key, value] of [
      ['state', markup],
      ['code', markup],
      ['error', markup],
      ['redirect_uri', 'https://evil.example/'],
    ])
      url.searchParams.set(key ?? '', value ?? '');
    const answer = await new CookieBrowser().get(url);
    const html = await answer.text();
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<img|evil\.example/);
  });
});
