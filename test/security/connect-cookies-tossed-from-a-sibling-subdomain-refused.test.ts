// Cookie tossing (the security review of Sign in with Slack): Mallory completes the Slack check for her own link in
// her own browser, so she knows her browser id and her link's verified cookie (HttpOnly hides them from scripts, not
// from her devtools). A page she controls on a sibling subdomain (user content at x.example.com beside the bot at
// relay.example.com), or any http page of the host, can set cookies for the bot's host under any name without the
// `__Host-` prefix (Domain=example.com, a more specific Path so they are sent first). With the bot's cookies named
// plainly, Bob's browser then passed the checks with Mallory's values: the MCP callback took her verified cookie, and
// her Slack callback took her browser id, and Bob's account at the authorization server was connected to Mallory.
// On an https public URL the bot now sets and reads `__Host-` cookies only, which no other host can set.
import { describe, expect, it } from 'vitest';
import { CookieBrowser } from './cookie-browser.js';
import { cookiePairs, MALLORY, useIdentityBot } from './slack-identity-harness.js';

const bot = useIdentityBot();

/** The name a sibling subdomain or an http page can give a cookie for the bot's host: without `__Host-`. */
const tossable = (name: string): string => name.replace(/^__Host-/, '');

describe('cookies a sibling subdomain tosses into Bob’s browser do not pass the Slack identity check', () => {
  it('sets the sign-in cookies host-only on an https public URL: __Host-, Secure, Path=/, no Domain', async () => {
    const { linkOf, signInWithSlack } = bot();
    const mallory = new CookieBrowser();
    await mallory.get(await signInWithSlack(mallory, await linkOf(), MALLORY));
    expect(mallory.setCookies).toHaveLength(2);
    for (const set of mallory.setCookies)
      expect(set).toMatch(
        /^__Host-elicit_relay_[\w-]+=[\w-]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
      );
  });

  it("refuses Mallory's verified cookie tossed into Bob's browser at the MCP callback, the link unspent", async () => {
    const { linkOf, signInWithSlack, fixture, replica, atBot } = bot();
    const link = await linkOf();
    const mallory = new CookieBrowser();
    const checked = await mallory.get(await signInWithSlack(mallory, link, MALLORY));
    expect(checked.status).toBe(302);
    const authorizationPage = new URL(checked.headers.get('location') ?? '');
    const [verified] = cookiePairs(mallory.setCookies).filter(([name]) => name.includes('connect'));
    if (verified === undefined) throw new Error('no verified cookie was set');

    // Bob, sent the authorization page, signs in there; his browser carries the tossed cookie back.
    const bobs = await fixture.oauth.decide(authorizationPage, 'bob@example.com');
    const tossed = `${tossable(verified[0])}=${verified[1]}`;
    const landed = await fetch(atBot(bobs), { redirect: 'manual', headers: { cookie: tossed } });
    expect(landed.status).toBe(403);
    expect(await landed.text()).toContain('data-code="identity_unverified"');
    expect(await replica.connections.list(MALLORY)).toEqual([]);

    const mallorys = await fixture.oauth.decide(authorizationPage, 'mallory@example.com');
    expect((await mallory.get(atBot(mallorys))).status).toBe(200);
    await replica.connections.disconnect('tracker', MALLORY);
  });

  it("refuses Mallory's Slack callback in Bob's browser holding her tossed browser id: no verified cookie for Bob", async () => {
    const { linkOf, signInWithSlack } = bot();
    const link = await linkOf();
    const mallory = new CookieBrowser();
    const back = await signInWithSlack(mallory, link, MALLORY);
    const [browserId] = cookiePairs(mallory.setCookies);
    if (browserId === undefined) throw new Error('no browser cookie was set');

    // A top-level GET (a link on Mallory's page): SameSite=Lax sends the tossed cookie along.
    const tossed = `${tossable(browserId[0])}=${browserId[1]}`;
    const bob = await fetch(back, { redirect: 'manual', headers: { cookie: tossed } });
    expect(bob.status).toBe(403);
    expect(await bob.text()).toContain('data-code="identity_unbound"');
    expect(bob.headers.getSetCookie()).toEqual([]);
  });
});
