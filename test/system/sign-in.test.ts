// Signing people in to a remote MCP server that needs it (issue #20), end to end: two bot replicas on real
// Redis, the Slack stand-in, the OAuth authorization server fixture and the protected Streamable HTTP fixture.
// The test plays each person's browser with plain HTTP: it opens the Connect message's link (the bot's start
// page, on one replica) and clicks its Continue, approves on the fixture's consent endpoint and follows the
// redirect to the bot's own callback (on the other replica).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ACTION } from '../../blocks/index.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { apiOf } from './api-support.js';
import { startHarness, type Harness } from './harness.js';
import {
  connectLink,
  nextDmPost,
  openConnectLink,
  startSignInServers,
  type SignInServers,
} from './sign-in-support.js';

const PUBLIC_URL = 'https://relay.example.com';
const TOKEN_KEY = Buffer.alloc(32, 9).toString('base64');
const API_TOKEN = 'api-token-for-sign-in-tests';

describe('signing in to a server that needs it, from Slack', () => {
  let servers: SignInServers;
  let h: Harness;
  const seen = new Set<RecordedCall>();
  // The replicas' debug lines, printed when a test fails, so a failure under CI's load can be read afterwards.
  const logs = captureLogs('debug');
  printLogsOnFailure(logs);

  beforeAll(async () => {
    servers = await startSignInServers();
    h = await startHarness({
      replicas: 2,
      env: {
        ELICIT_RELAY_TOKEN_KEY: TOKEN_KEY,
        ELICIT_RELAY_PUBLIC_URL: PUBLIC_URL,
        ELICIT_RELAY_API_TOKEN: API_TOKEN,
      },
      servers: { tracker: { url: servers.tracker.url.href, auth: { mode: 'oauth' } } },
      logger: logs.logger,
    });
  });
  afterAll(async () => {
    await h.close();
    await servers.close();
  });

  /** The next message posted to the person's DM whose blocks contain `text`. */
  const nextPost = (userId: string, text: string): Promise<RecordedCall> =>
    nextDmPost(h.standin, seen, { userId, text });

  const run = async (userId: string, tool: string): Promise<void> => {
    const response = await h.driver.slashCommand({ userId, command: '/mcp', text: `run tracker ${tool} {}` });
    expect(response.status).toBe(200);
  };

  /**
   * The person's browser: opens the Connect link on the first replica, approves as `subject` on the authorization
   * page it is sent to, then lands on the bot's callback on the second replica.
   */
  const signIn = async (
    link: URL,
    subject: string,
  ): Promise<{ status: number; page: string; callback: URL; authorization: URL }> => {
    const authorization = await openConnectLink(link, `http://127.0.0.1:${h.replicas[0]?.port}`);
    const redirect = await servers.oauth.decide(authorization, subject);
    expect(redirect.origin + redirect.pathname).toBe(`${PUBLIC_URL}/oauth/mcp/callback`);
    const callback = new URL(
      `${redirect.pathname}${redirect.search}`,
      `http://127.0.0.1:${h.replicas[1]?.port}`,
    );
    const response = await fetch(callback);
    return { status: response.status, page: await response.text(), callback, authorization };
  };

  let annCallback: URL;

  it("sends a person's first call a Connect message naming the server and scopes, then runs it as them", async () => {
    await run('UANN', 'whoami');
    const prompt = await nextPost('UANN', CONNECT_ACTION);
    const text = JSON.stringify(prompt.args.blocks);
    expect(text).toContain('tracker');
    expect(text).toContain('mcp');
    const link = connectLink(prompt);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/oauth/mcp/start`);
    const landed = await signIn(link, 'ann@example.com');
    expect(landed.authorization.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/oauth/mcp/callback`);
    expect(landed.authorization.searchParams.get('resource')).toBe(servers.tracker.url.href);
    expect(landed.status).toBe(200);
    expect(landed.page).toContain('connected to tracker');
    annCallback = landed.callback;
    await nextPost('UANN', 'ann@example.com');
  });

  it("gives a second person their own Connect message and never the first person's token", async () => {
    await run('UBOB', 'whoami');
    const link = connectLink(await nextPost('UBOB', CONNECT_ACTION));
    expect((await signIn(link, 'bob@example.com')).status).toBe(200);
    const result = await nextPost('UBOB', '@example.com');
    expect(JSON.stringify(result.args.blocks)).toContain('bob@example.com');
    expect(JSON.stringify(result.args.blocks)).not.toContain('ann@example.com');
    await run('UANN', 'whoami');
    await nextPost('UANN', 'ann@example.com');
  });

  it('refreshes an expired access token without asking the person again', async () => {
    servers.oauth.expireAccessTokens();
    const refreshes = servers.oauth.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    await run('UANN', 'whoami');
    await nextPost('UANN', 'ann@example.com');
    const after = servers.oauth.tokenRequests.filter((r) => r.grantType === 'refresh_token');
    expect(after.slice(refreshes).map((r) => r.subject)).toContain('ann@example.com');
  });

  it('asks a person whose grant was revoked to connect again, then goes on', async () => {
    servers.oauth.revokeGrants('bob@example.com');
    await run('UBOB', 'whoami');
    const prompt = await nextPost('UBOB', CONNECT_ACTION);
    expect(JSON.stringify(prompt.args.blocks)).toContain('revoked');
    expect((await signIn(connectLink(prompt), 'bob@example.com')).status).toBe(200);
    await nextPost('UBOB', 'bob@example.com');
  });

  it('asks for the extra scope a tool needs (step-up), then runs it', async () => {
    await run('UANN', 'admin_report');
    const prompt = await nextPost('UANN', CONNECT_ACTION);
    expect(JSON.stringify(prompt.args.blocks)).toContain('more access');
    const landed = await signIn(connectLink(prompt), 'ann@example.com');
    expect(landed.authorization.searchParams.get('scope')?.split(' ')).toContain('admin');
    expect(landed.status).toBe(200);
    await nextPost('UANN', 'report for ann@example.com');
  });

  it('refuses a forged and a replayed state with a page saying so', async () => {
    const port = h.replicas[0]?.port;
    const forged = await fetch(`http://127.0.0.1:${port}/oauth/mcp/callback?state=forged&code=x`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('data-code="state_invalid"');
    const replayed = await fetch(annCallback);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('data-code="state_used"');
  });

  it('refuses an API call as a person who has not connected with not_connected, saying how to connect', async () => {
    const api = apiOf(h, API_TOKEN);
    const reply = await api('POST', '/calls', {
      body: { server: 'tracker', tool: 'whoami', as: { user: 'UCAROL' } },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: 'not_connected' });
    expect(JSON.stringify(reply.body)).toContain('/mcp connect tracker');
    const connected = await api('POST', '/calls', {
      body: { server: 'tracker', tool: 'whoami', as: { user: 'UANN' } },
    });
    expect(connected.status).toBe(202);
    await nextPost('UANN', 'ann@example.com');
  });
});
