// The bot's sign-in pages with Sign in with Slack on, as the security tests attack them: the MCP side's Connections
// on Redis with the OAuth fixture (public URL https://bot.example.com), the Connect message and Sign in with Slack
// on the Slack stand-in, the routes built as the bot builds them, served on a local port.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { ConnectedSlack } from '../../src/config/index.js';
import type { Person } from '../../src/mcp/index.js';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';
import { Locales } from '../../src/slack/locales.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { slackOwners } from '../../src/slack/sign-in-owner.js';
import { identityCheckOf, signInRoutes } from '../../src/slack/sign-in-routes.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from '../mcp/auth/support.js';
import { standinWithMessages } from '../slack/standin-client.js';
import { CookieBrowser } from './cookie-browser.js';

const TOKEN = 'xoxb-slack-identity-harness';
const APP = { clientId: '1111.3333', clientSecret: 'slack-identity-harness-secret' };
export const TEAM = 'T0STANDIN';
export const MALLORY: Person = { teamId: TEAM, userId: 'U0MALLORY' };
export const BOB: Person = { teamId: TEAM, userId: 'U0BOB' };

export interface IdentityBot {
  fixture: AuthFixture;
  replica: AuthReplica;
  /** A URL the bot made for its public address, at this test's bot. */
  atBot: (url: string | URL) => URL;
  /** A new Connect link of `as` (default Mallory), from the Connect message in their DM. */
  linkOf: (as?: Person) => Promise<URL>;
  /** Opens a Connect link in `browser` and signs in with Slack as `who`: where Slack sends the browser back. */
  signInWithSlack: (browser: CookieBrowser, link: URL, who: Person) => Promise<URL>;
  close: () => Promise<void>;
}

/** Call at a test file's top level: the bot starts before its tests and stops after them. */
export function useIdentityBot(): () => IdentityBot {
  const slack = standinWithMessages({
    botToken: TOKEN,
    oauth: APP,
    users: { [MALLORY.userId]: { name: 'Mallory' }, [BOB.userId]: { name: 'Bob' } },
  });
  let bot: IdentityBot | undefined;
  beforeAll(async () => {
    bot = await startIdentityBot(slack);
  });
  afterAll(() => bot?.close());
  return () => {
    if (bot === undefined) throw new Error('the bot starts in beforeAll');
    return bot;
  };
}

async function startIdentityBot(slack: ReturnType<typeof standinWithMessages>): Promise<IdentityBot> {
  const fixture = await startAuthFixture();
  const replica = await fixture.replica();
  const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: slack.standin.apiUrl }));
  const config: ConnectedSlack = {
    mode: 'http',
    signingSecret: 'unused-here',
    auth: 'token',
    botToken: TOKEN,
    signInWithSlack: APP,
    apiUrl: slack.standin.apiUrl,
  };
  const identity = identityCheckOf(config, fetch, systemClock, () => Promise.resolve(TEAM));
  const http: RunningHttpServer = await startHttpServer({
    port: 0,
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    routes: signInRoutes({
      connections: replica.connections,
      ownerOf: slackOwners(clients, systemClock),
      connected: () => Promise.resolve(),
      logger: { warn: () => {}, error: () => {} },
      ...(identity ? { identity } : {}),
    }),
  });
  const base = `http://127.0.0.1:${http.port}`;
  const atBot = (url: string | URL): URL => {
    const parsed = new URL(url);
    return new URL(`${parsed.pathname}${parsed.search}`, base);
  };
  const linkOf = async (as: Person = MALLORY): Promise<URL> => {
    const dm = (await (await clients.for()).conversations.open({ users: as.userId })).channel?.id ?? '';
    const prompter = new SlackSignIn({
      messages: slack.messages,
      locales: new Locales(clients),
      dmOf: () => Promise.resolve(dm),
    });
    await prompter.prompt(await replica.connections.begin(SERVER, as));
    const posted = slack.standin.calls.filter((c) => c.method === 'chat.postMessage').at(-1);
    return atBot(/"url":"([^"]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '');
  };
  const signInWithSlack = async (browser: CookieBrowser, link: URL, who: Person): Promise<URL> => {
    const start = await browser.get(link);
    const signIn = CookieBrowser.linkOf(await start.text(), 'slack-sign-in');
    if (signIn === undefined)
      throw new Error(`the start page (${start.status}) offers no Sign in with Slack`);
    return atBot(slack.standin.openid.approve(signIn.href, who));
  };
  const close = async (): Promise<void> => {
    await http.close();
    await fixture.close();
  };
  return { fixture, replica, atBot, linkOf, signInWithSlack, close };
}

/** The name and value of each cookie a Set-Cookie list sets. */
export const cookiePairs = (setCookies: readonly string[]): [string, string][] =>
  setCookies.map((set) => {
    const [pair = ''] = set.split(';');
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
