// A Connect link forwarded to someone else is refused, not only named (the security review: Mallory runs
// /mcp connect and gets Bob to open her link; Bob would sign in at the authorization server and his tokens be
// saved for Mallory). With the app's client credentials the start page asks for Sign in with Slack, and only the
// link's owner (same user and workspace) goes on to the authorization server; the Slack sign-in and the MCP
// callback are bound to the browser that did the check by cookies, so neither a Slack callback nor the
// authorization server's page can be forwarded instead. Real parts: the MCP side's Connections on Redis with the
// OAuth fixture, the Connect message and Sign in with Slack on the Slack stand-in (its OpenID endpoints, id_tokens
// signed RS256 and checked against its JWKS), the routes the bot mounts built as the bot builds them.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { ConnectedSlack } from '../../src/config/index.js';
import { CALLBACK_PATH, type Person, type SignInNeeded } from '../../src/mcp/index.js';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';
import { Locales } from '../../src/slack/locales.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { IDENTITY_PATH, START_PATH } from '../../src/slack/sign-in-links.js';
import { slackOwners } from '../../src/slack/sign-in-owner.js';
import { identityCheckOf, signInRoutes } from '../../src/slack/sign-in-routes.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from '../mcp/auth/support.js';
import { standinWithMessages } from '../slack/standin-client.js';
import { CookieBrowser } from './cookie-browser.js';

const TOKEN = 'xoxb-slack-identity-test';
const APP = { clientId: '1111.2222', clientSecret: 'slack-identity-test-secret' };
const TEAM = 'T0STANDIN';
const MALLORY: Person = { teamId: TEAM, userId: 'U0MALLORY' };
const BOB: Person = { teamId: TEAM, userId: 'U0BOB' };
/** Another workspace the app is in, where someone has Mallory's user id too. */
const OTHER_TEAM = 'T0OTHER';

const slack = standinWithMessages({
  botToken: TOKEN,
  oauth: APP,
  workspaces: [{ teamId: OTHER_TEAM }],
  users: { [MALLORY.userId]: { name: 'Mallory' }, [BOB.userId]: { name: 'Bob' } },
});
let fixture: AuthFixture;
let replica: AuthReplica;
let http: RunningHttpServer;
let prompter: SlackSignIn;
let base: string;
const logger = { warn: () => {}, error: () => {} };

/** The deployment's Slack settings with the app's client credentials (OAuth distribution). */
const withClientCredentials = (): ConnectedSlack => ({
  mode: 'http',
  signingSecret: 'unused-here',
  auth: 'oauth',
  oauth: { ...APP, stateSecret: 'unused-here-0123456789' },
  apiUrl: slack.standin.apiUrl,
});

beforeAll(async () => {
  fixture = await startAuthFixture();
  replica = await fixture.replica();
  const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: slack.standin.apiUrl }));
  const dm = (await (await clients.for()).conversations.open({ users: MALLORY.userId })).channel?.id ?? '';
  prompter = new SlackSignIn({
    messages: slack.messages,
    locales: new Locales(clients),
    dmOf: () => Promise.resolve(dm),
  });
  const identity = identityCheckOf(withClientCredentials(), fetch, systemClock, () => Promise.resolve(TEAM));
  const routes = signInRoutes({
    connections: replica.connections,
    ownerOf: slackOwners(clients, systemClock),
    connected: () => Promise.resolve(),
    logger,
    ...(identity ? { identity } : {}),
  });
  http = await startHttpServer({
    port: 0,
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    routes,
  });
  base = `http://127.0.0.1:${http.port}`;
});
afterAll(async () => {
  await http.close();
  await fixture.close();
});

/** A URL the bot made for its public address (the fixture's), at this test's bot. */
const atBot = (url: string | URL): URL => {
  const parsed = new URL(url);
  return new URL(`${parsed.pathname}${parsed.search}`, base);
};

/** Mallory's new Connect link, from the Connect message in her DM (`as`: her Person, default with her team). */
async function mallorysLink(as: Person = MALLORY): Promise<{ link: URL; need: SignInNeeded }> {
  const need = await replica.connections.begin(SERVER, as);
  await prompter.prompt(need);
  const posted = slack.standin.calls.filter((c) => c.method === 'chat.postMessage').at(-1);
  const url = /"url":"([^"]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
  return { link: atBot(url), need };
}

/** Opens a Connect link and signs in with Slack as `who`: where Slack sends the browser back. */
async function signInWithSlack(browser: CookieBrowser, link: URL, who: Person): Promise<URL> {
  const start = await browser.get(link);
  expect(start.status).toBe(200);
  const signIn = CookieBrowser.linkOf(await start.text(), 'slack-sign-in');
  if (signIn === undefined) throw new Error('the start page offers no Sign in with Slack');
  return atBot(slack.standin.openid.approve(signIn.href, who));
}

const codeOf = async (response: Response): Promise<string | undefined> =>
  /data-code="([^"]*)"/.exec(await response.text())?.[1];

/** Mallory finishes with her own link in her own browser: Slack, then the authorization server, then the callback. */
async function malloryCompletes(browser: CookieBrowser, link: URL): Promise<void> {
  const back = await browser.get(await signInWithSlack(browser, link, MALLORY));
  expect(back.status).toBe(302);
  const authorizationPage = new URL(back.headers.get('location') ?? '');
  const redirect = await fixture.oauth.decide(authorizationPage, 'mallory@example.com');
  const landed = await browser.get(atBot(redirect));
  expect(landed.status).toBe(200);
  expect((await replica.connections.list(MALLORY)).map((c) => c.server)).toEqual([SERVER]);
  await replica.connections.disconnect(SERVER, MALLORY);
}

describe('a Connect link opened by someone other than its owner is refused at Sign in with Slack', () => {
  it("refuses Bob, who signed in with Slack on Mallory's link, naming both; the link still works for Mallory", async () => {
    const { link, need } = await mallorysLink();
    const bob = new CookieBrowser();
    const start = await bob.get(link);
    const html = await start.text();
    expect(CookieBrowser.linkOf(html, 'continue')).toBeUndefined();
    const signIn = CookieBrowser.linkOf(html, 'slack-sign-in');
    expect(signIn?.origin).toBe(new URL(slack.standin.apiUrl).origin);
    expect(signIn?.pathname).toBe('/openid/connect/authorize');
    expect(signIn?.searchParams.get('scope')).toBe('openid');
    expect(signIn?.searchParams.get('redirect_uri')).toBe(`https://bot.example.com${IDENTITY_PATH}`);
    // The fixture's public URL is https: the browser cookie is host-only (__Host-: Secure, Path=/), HttpOnly, Lax.
    expect(bob.setCookies[0]).toMatch(
      /^__Host-elicit_relay_browser=[\w-]{32}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
    );

    const back = await bob.get(atBot(slack.standin.openid.approve(signIn?.href ?? '', BOB)));
    expect(back.status).toBe(403);
    const refusal = await back.text();
    expect(refusal).toContain('data-code="identity_mismatch"');
    expect(CookieBrowser.textOf(refusal, 'outcome')).toBe(
      `This link was made for <@${MALLORY.userId}>; you signed in as <@${BOB.userId}>. ` +
        'Ask for your own with /mcp connect.',
    );
    expect(back.headers.get('location')).toBeNull();
    expect(refusal).not.toContain(need.authorizationUrl.host);

    await malloryCompletes(new CookieBrowser(), link);
  });

  it("refuses the owner's Slack callback opened in another browser (no cookie, or another browser's), and the owner still goes on", async () => {
    const { link } = await mallorysLink();
    const mallory = new CookieBrowser();
    const back = await signInWithSlack(mallory, link, MALLORY);

    const noCookie = await new CookieBrowser().get(back);
    expect(noCookie.status).toBe(403);
    expect(await codeOf(noCookie)).toBe('identity_unbound');

    // Bob has a browser cookie of his own (he opened a start page): the id_token's nonce is not his browser's.
    const bob = new CookieBrowser();
    const other = await mallorysLink();
    await bob.get(other.link);
    const hisCookie = await bob.get(back);
    expect(hisCookie.status).toBe(403);
    expect(await codeOf(hisCookie)).toBe('identity_unbound');

    await malloryCompletes(mallory, link);
  });

  it("refuses the authorization server's page forwarded from the owner's checked browser to another, unspent", async () => {
    const { link } = await mallorysLink();
    const mallory = new CookieBrowser();
    const checked = await mallory.get(await signInWithSlack(mallory, link, MALLORY));
    const authorizationPage = new URL(checked.headers.get('location') ?? '');

    // Bob signs in at the authorization server through the page Mallory forwarded; his browser lands uncleared.
    const bobs = await fixture.oauth.decide(authorizationPage, 'bob@example.com');
    const landed = await new CookieBrowser().get(atBot(bobs));
    expect(landed.status).toBe(403);
    expect(await codeOf(landed)).toBe('identity_unverified');
    expect(await replica.connections.list(MALLORY)).toEqual([]);

    const mallorys = await fixture.oauth.decide(authorizationPage, 'mallory@example.com');
    expect((await mallory.get(atBot(mallorys))).status).toBe(200);
    expect((await replica.connections.list(MALLORY)).map((c) => c.server)).toEqual([SERVER]);
    await replica.connections.disconnect(SERVER, MALLORY);
  });
});

describe("Sign in with Slack, in the person's language and workspace", () => {
  it('refuses Bob in Chinese when his browser prefers it, naming both', async () => {
    const { link } = await mallorysLink();
    const bob = new CookieBrowser('zh-CN,zh;q=0.9');
    const back = await bob.get(await signInWithSlack(bob, link, BOB));
    expect(back.status).toBe(403);
    expect(CookieBrowser.textOf(await back.text(), 'outcome')).toBe(
      `此链接是为 <@${MALLORY.userId}> 生成的；你登录的是 <@${BOB.userId}>。请用 /mcp connect 获取你自己的链接。`,
    );
  });

  it("takes a one-workspace link's owner (no team id) to be of the bot token's workspace: the same user id of another is refused", async () => {
    const { link } = await mallorysLink({ teamId: '', userId: MALLORY.userId });
    const elsewhere = new CookieBrowser();
    const back = await elsewhere.get(
      await signInWithSlack(elsewhere, link, { teamId: OTHER_TEAM, userId: MALLORY.userId }),
    );
    expect(back.status).toBe(403);
    expect(CookieBrowser.textOf(await back.text(), 'outcome')).toBe(
      `This link was made for <@${MALLORY.userId}> (${TEAM}); you signed in as <@${MALLORY.userId}> (${OTHER_TEAM}). ` +
        'Ask for your own with /mcp connect.',
    );
    const home = new CookieBrowser();
    const checked = await home.get(await signInWithSlack(home, link, MALLORY));
    expect(checked.status).toBe(302);
  });
});

describe("a deployment without the app's client credentials (a bot token)", () => {
  it("keeps today's start page: it names the owner, sets no cookie and leads straight to the authorization server", async () => {
    const tokenOnly: ConnectedSlack = {
      mode: 'http',
      signingSecret: 's',
      auth: 'token',
      botToken: TOKEN,
      apiUrl: '',
    };
    expect(identityCheckOf(tokenOnly, fetch, systemClock, () => Promise.resolve(TEAM))).toBeUndefined();
    const routes = signInRoutes({
      connections: replica.connections,
      ownerOf: () => Promise.resolve({}),
      connected: () => Promise.resolve(),
      logger,
    });
    expect(Object.keys(routes).sort()).toEqual([CALLBACK_PATH, START_PATH].sort());
    const plain = await startHttpServer({
      port: 0,
      live: () => true,
      ready: () => Promise.resolve({ ok: true }),
      routes,
    });
    try {
      const { link, need } = await mallorysLink();
      const browser = new CookieBrowser();
      const page = await browser.get(
        new URL(`${link.pathname}${link.search}`, `http://127.0.0.1:${plain.port}`),
      );
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(browser.setCookies).toEqual([]);
      expect(CookieBrowser.linkOf(html, 'continue')?.href).toBe(need.authorizationUrl.href);
      expect(CookieBrowser.textOf(html, 'owner')).toBe(
        `Connect ${SERVER} for <@${MALLORY.userId}> (workspace ${TEAM})? ` +
          'Only continue if this is you: whoever signs in next gives that Slack account their access.',
      );
    } finally {
      await plain.close();
    }
  });
});
