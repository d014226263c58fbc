// Signing in to a server that needs it (issue #20) in a bot installed in two Slack workspaces (OAuth
// distribution): a grant belongs to a workspace and a person. Slack user ids are per workspace, so the same id
// in two workspaces is two people: the one who connected in T1 never lends their grant to the one in T2, who is
// sent their own Connect message there; an API call for the person in T2, not connected, fails naming T2 and
// how to connect, while one for the person in T1 runs with T1's grant. Two bot replicas (main.ts start) on real
// Redis, the Slack stand-in (both workspaces installed through Bolt's OAuth flow), the OAuth authorization server
// fixture and the protected Streamable HTTP fixture; the test plays each person's browser with plain HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ACTION } from '../../blocks/index.js';
import { start, type RunningRelay } from '../../src/main.js';
import { SlackDriver, type RecordedCall, type SlackStandin } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { distributedConfig, install, startDistributedStandin } from '../support/oauth-install.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { uniquePrefix } from '../setup/context.js';
import { SIGNING_SECRET } from './harness.js';
import {
  connectLink,
  nextDmPost,
  openConnectLink,
  startSignInServers,
  type SignInServers,
} from './sign-in-support.js';
import { SignInBrowser } from '../support/sign-in-browser.js';

const OAUTH = { clientId: '1111.2222', clientSecret: 'client-secret-for-tests' };
const [T1, T2] = ['T0FIRST', 'T0SECOND'];
/** One Slack user id, in both workspaces: two different people. */
const ANN = 'UANN';
const PUBLIC_URL = 'https://relay.example.com';
const API_TOKEN = 'api-token-for-workspace-sign-in';

describe('signing in, in a bot installed in two workspaces', () => {
  let servers: SignInServers;
  let standin: SlackStandin;
  let replicas: RunningRelay[] = [];
  let prefix: string;
  const seen = new Set<RecordedCall>();
  const logs = captureLogs('debug');
  printLogsOnFailure(logs);

  beforeAll(async () => {
    servers = await startSignInServers();
    standin = await startDistributedStandin(OAUTH, [
      { teamId: T1, teamDomain: 'first' },
      { teamId: T2, teamDomain: 'second' },
    ]);
    prefix = uniquePrefix();
    const config = distributedConfig(standin, OAUTH, {
      prefix,
      env: {
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        ELICIT_RELAY_TOKEN_KEY: Buffer.alloc(32, 4).toString('base64'),
        ELICIT_RELAY_PUBLIC_URL: PUBLIC_URL,
        ELICIT_RELAY_API_TOKEN: API_TOKEN,
      },
      servers: { tracker: { url: servers.tracker.url.href, auth: { mode: 'oauth' } } },
    });
    replicas = [await start(config, logs.logger), await start(config, logs.logger)];
    const first = replicas[0];
    if (first === undefined) throw new Error('two replicas expected');
    standin.oauth.setRedirectUrl(`http://127.0.0.1:${first.port}/slack/oauth_redirect`);
    for (const team of [T1, T2])
      expect(await install(`http://127.0.0.1:${first.port}`, standin, team)).toBe(200);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await standin.close();
    await servers.close();
    await deleteUnder(prefix);
  });

  const port = (replica: number): number => {
    const found = replicas[replica];
    if (found === undefined) throw new Error(`no replica ${replica}`);
    return found.port;
  };

  /** `/mcp run tracker whoami {}` as `userId` of workspace `teamId`, received by replica `on`. */
  const run = async (teamId: string, userId: string, on: number): Promise<void> => {
    const driver = new SlackDriver({
      eventsUrl: `http://127.0.0.1:${port(on)}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standin,
      teamId,
    });
    const response = await driver.slashCommand({ userId, command: '/mcp', text: 'run tracker whoami {}' });
    expect(response.status).toBe(200);
  };

  /** The next message posted in workspace `teamId` to the person's DM whose blocks contain `text`. */
  const nextPost = (teamId: string, userId: string, text: string): Promise<RecordedCall> =>
    nextDmPost(standin, seen, { userId, text, teamId });

  /**
   * The browser of the person `userId` of `teamId`: opens the Connect link on the first replica and signs in with
   * Slack there (the bot is an OAuth install: it has the app's client credentials), approves as `subject`, then
   * lands on the bot's callback on the second replica, which reads the first's cookies.
   */
  const signIn = async (
    link: URL,
    who: { userId: string; teamId: string },
    subject: string,
  ): Promise<number> => {
    const browser = new SignInBrowser(who);
    const authorization = await openConnectLink(link, `http://127.0.0.1:${port(0)}`, browser);
    const redirect = await servers.oauth.decide(authorization, subject);
    const callback = new URL(`${redirect.pathname}${redirect.search}`, `http://127.0.0.1:${port(1)}`);
    return (await browser.get(callback)).status;
  };

  const api = async (body: object): Promise<{ status: number; text: string }> => {
    const response = await fetch(`http://127.0.0.1:${port(0)}/api/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  it('connects the person of T1 from T1, and runs their call with their grant', async () => {
    await run(T1, ANN, 0);
    const prompt = await nextPost(T1, ANN, CONNECT_ACTION);
    expect(JSON.stringify(prompt.args.blocks)).toContain('tracker');
    expect(await signIn(connectLink(prompt), { userId: ANN, teamId: T1 }, 'ann-of-first@example.com')).toBe(
      200,
    );
    await nextPost(T1, ANN, 'ann-of-first@example.com');
  });

  it("refuses an API call for the person of T2 (not connected there) naming T2 and /mcp connect, though T1's is", async () => {
    const reply = await api({ server: 'tracker', tool: 'whoami', as: { user: ANN, team: T2 } });
    expect(reply.status).toBe(409);
    const { error } = JSON.parse(reply.text) as { error: { code: string; message: string } };
    expect(error.code).toBe('not_connected');
    expect(error.message).toContain(`workspace ${T2}`);
    expect(error.message).toContain('/mcp connect tracker');
    // The workspace is required: a call naming none is refused saying which field to add.
    const unnamed = await api({ server: 'tracker', tool: 'whoami', as: { user: ANN } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.text).toContain('/as/team');
  });

  it("sends the person of T2 with the same user id their own Connect message there, never T1's grant", async () => {
    const tokenRequests = servers.oauth.tokenRequests.length;
    await run(T2, ANN, 1);
    const prompt = await nextPost(T2, ANN, CONNECT_ACTION);
    const before = standin.calls.filter((c) => c.method === 'chat.postMessage' && c.teamId === T2);
    expect(JSON.stringify(before.map((c) => c.args.blocks))).not.toContain('ann-of-first@example.com');
    // No refresh or exchange on the T1 grant's behalf happened for T2's person.
    expect(servers.oauth.tokenRequests.slice(tokenRequests)).toEqual([]);

    // The person of T1, with the same user id, signing in with Slack on it is refused: the workspace differs.
    const ofFirst = new SignInBrowser({ userId: ANN, teamId: T1 });
    await expect(
      openConnectLink(connectLink(prompt), `http://127.0.0.1:${port(0)}`, ofFirst),
    ).rejects.toThrow('identity_mismatch');
    expect(await signIn(connectLink(prompt), { userId: ANN, teamId: T2 }, 'ann-of-second@example.com')).toBe(
      200,
    );
    const result = await nextPost(T2, ANN, 'ann-of-second@example.com');
    expect(JSON.stringify(result.args.blocks)).not.toContain('ann-of-first@example.com');
    // T1's person still calls as themselves.
    await run(T1, ANN, 1);
    await nextPost(T1, ANN, 'ann-of-first@example.com');
  });

  it("runs an API call as the person of T1 with T1's grant, its result posted in T1", async () => {
    const reply = await api({ server: 'tracker', tool: 'whoami', as: { user: ANN, team: T1 } });
    expect(reply.status).toBe(202);
    await nextPost(T1, ANN, 'ann-of-first@example.com');
  });
});
