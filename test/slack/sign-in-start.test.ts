// The Connect link's start page on the bot's HTTP server (GET /oauth/mcp/start?state=…): it names whose Slack
// account the link connects (escaped, in their language) and links Continue to the authorization page; a link no
// longer usable gets the refusal page. The Connections and the owner lookup here are this test's own, standing
// for the MCP side's and Slack's (their own tests, and the system tests, prove the rest): what is proven is the
// route's side of the ports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInError, type Connections, type Person } from '../../src/mcp/index.js';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';
import { START_PATH } from '../../src/slack/sign-in-links.js';
import type { LinkOwner } from '../../src/slack/sign-in-owner.js';
import { signInStart } from '../../src/slack/sign-in-start.js';
import { startPageOf } from '../support/sign-in-browser.js';

/** An authorization page with characters HTML must escape in its attribute. */
const PAGE = 'https://as.example/authorize?state=s-ann&scope=mcp%20admin&x="><b>';

const PEOPLE: Record<string, Person> = {
  's-ann': { teamId: 'T1', userId: 'U0ANN' },
  's-zh': { teamId: 'T1', userId: 'U0LI' },
  's-unknown': { teamId: 'T2', userId: 'U0NONAME' },
};

const OWNERS: Record<string, LinkOwner> = {
  U0ANN: { name: 'Ann <script>alert(1)</script>', locale: 'en' },
  U0LI: { name: '李雷', locale: 'zh-CN' },
};

class Links implements Pick<Connections, 'start'> {
  readonly started: string[] = [];
  start(state: string): ReturnType<Connections['start']> {
    this.started.push(state);
    const person = PEOPLE[state];
    if (person === undefined) return Promise.reject(new SignInError('state_used', '', 'used'));
    return Promise.resolve({ server: 'tracker', person, authorizationUrl: new URL(PAGE) });
  }
}

const links = new Links();
let server: RunningHttpServer;

beforeAll(async () => {
  const ownerOf = (person: Person): Promise<LinkOwner> => Promise.resolve(OWNERS[person.userId] ?? {});
  server = await startHttpServer({
    port: 0,
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    routes: {
      [START_PATH]: signInStart({ connections: links, ownerOf, logger: { warn: () => {}, error: () => {} } }),
    },
  });
});
afterAll(async () => {
  await server.close();
});

const open = (state: string): Promise<Response> =>
  fetch(`http://127.0.0.1:${server.port}${START_PATH}?state=${state}`, { redirect: 'manual' });

describe(`GET ${START_PATH}`, () => {
  it('names the link owner by Slack name, id and workspace, escaped, with Continue to the authorization page', async () => {
    const response = await open('s-ann');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('"><b>');
    const page = startPageOf(html);
    expect(page.owner).toBe(
      'Connect tracker for Ann <script>alert(1)</script> (<@U0ANN>, workspace T1)? Only continue if this is you: ' +
        'whoever signs in next gives that Slack account their access.',
    );
    expect(page.proceed.href).toBe(new URL(PAGE).href);
  });

  it("is in Chinese when the owner's Slack locale is", async () => {
    const page = startPageOf(await (await open('s-zh')).text());
    expect(page.owner).toContain('为李雷（<@U0LI>，工作区 T1）连接 tracker？');
  });

  it('names the owner by user id only when Slack does not say their name', async () => {
    const page = startPageOf(await (await open('s-unknown')).text());
    expect(page.owner).toContain('Connect tracker for <@U0NONAME> (workspace T2)?');
  });

  it('refuses a link no longer usable with the refusal page', async () => {
    const response = await open('s-used');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('data-code="state_used"');
  });
});
