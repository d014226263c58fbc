// A Connect link forwarded to someone else (the security review: Mallory runs /mcp connect and gets Bob to open
// her link; Bob signs in, and Bob's tokens would be saved for Mallory). The button opens the bot's start page
// first, which names whose Slack account the link connects before anyone signs in, so Bob sees it is Mallory's.
// Real parts: the MCP side's Connections on Redis with the OAuth fixture (test/mcp/auth/support.ts), the Connect
// message posted to the Slack stand-in, and Mallory's name from its users.info, through the routes the bot mounts.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_PATH, type Person } from '../../src/mcp/index.js';
import { systemClock } from '../../src/clock.js';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';
import { Locales } from '../../src/slack/locales.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { signInCallback } from '../../src/slack/sign-in-callback.js';
import { START_PATH } from '../../src/slack/sign-in-links.js';
import { slackOwners } from '../../src/slack/sign-in-owner.js';
import { signInStart } from '../../src/slack/sign-in-start.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from '../mcp/auth/support.js';
import { standinWithMessages } from '../slack/standin-client.js';
import { SignInBrowser } from '../support/sign-in-browser.js';

const TOKEN = 'xoxb-forwarded-link-test';
const MALLORY: Person = { teamId: 'T1', userId: 'U0MALLORY' };
/** Mallory's display name, as hostile as she likes. */
const MALLORY_NAME = 'Mallory <script>alert(1)</script>';

const slack = standinWithMessages({ botToken: TOKEN, users: { [MALLORY.userId]: { name: MALLORY_NAME } } });
let fixture: AuthFixture;
let replica: AuthReplica;
let http: RunningHttpServer;
let prompter: SlackSignIn;
let base: string;

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
  const logger = { warn: () => {}, error: () => {} };
  const { connections } = replica;
  http = await startHttpServer({
    port: 0,
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    routes: {
      [START_PATH]: signInStart({ connections, ownerOf: slackOwners(clients, systemClock), logger }),
      [CALLBACK_PATH]: signInCallback({ connections, connected: () => Promise.resolve(), logger }),
    },
  });
  base = `http://127.0.0.1:${http.port}`;
});
afterAll(async () => {
  await http.close();
  await fixture.close();
});

/** The Connect button's link in the latest message of Mallory's DM, at this bot's address. */
function connectLinkOfLatest(): URL {
  const posted = slack.standin.calls.filter((c) => c.method === 'chat.postMessage').at(-1);
  const url = /"url":"([^"]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
  const link = new URL(url);
  return new URL(`${link.pathname}${link.search}`, base);
}

describe('a Connect link forwarded to someone else names its owner before anyone signs in', () => {
  it("shows Bob, opening Mallory's link, a page naming Mallory (escaped), without spending it; Mallory still completes", async () => {
    const need = await replica.connections.begin(SERVER, MALLORY);
    await prompter.prompt(need);
    const link = connectLinkOfLatest();
    expect(link.pathname).toBe(START_PATH);

    const bob = await fetch(link, { redirect: 'manual' });
    expect(bob.status).toBe(200);
    const html = await bob.text();
    expect(html).not.toContain('<script>');
    const shown = await new SignInBrowser().read(link);
    expect(shown.owner).toBe(
      `Connect ${SERVER} for ${MALLORY_NAME} (<@${MALLORY.userId}>, workspace ${MALLORY.teamId})? ` +
        'Only continue if this is you: whoever signs in next gives that Slack account their access.',
    );
    // Continue leads to the authorization page the link was made for, and nowhere else.
    expect(shown.proceed.href).toBe(need.authorizationUrl.href);

    // Showing the page spent nothing: Mallory, with her own link, still connects as herself.
    const redirect = await fixture.oauth.decide(shown.proceed, 'mallory@example.com');
    const landed = await fetch(`${base}${CALLBACK_PATH}${redirect.search}`);
    expect(landed.status).toBe(200);
    expect((await replica.connections.list(MALLORY)).map((c) => c.server)).toEqual([SERVER]);
  });
});
