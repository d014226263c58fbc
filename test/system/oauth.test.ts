// Multi-workspace distribution: one deployment, installed in two workspaces through Bolt's OAuth flow
// (/slack/install → Slack's authorize page → /slack/oauth_redirect → oauth.v2.access), keeps each installation
// in Redis and makes every Web API call with the token of the question's workspace, on any replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { SlackDriver, type SlackStandin } from '../../src/standin/index.js';
import { uniquePrefix } from '../setup/context.js';
import {
  askThroughInstall,
  distributedConfig,
  install,
  startDistributedStandin,
} from '../support/oauth-install.js';
import { resultText } from '../support/slack-text.js';
import { fixtureCommand } from '../setup/compiled.js';
import { SIGNING_SECRET } from './harness.js';

const OAUTH = { clientId: '1111.2222', clientSecret: 'client-secret-for-tests' };
const SECOND = 'T0SECOND';
describe('OAuth installs in several workspaces', () => {
  let standin: SlackStandin;
  let replicas: RunningRelay[];
  beforeAll(async () => {
    standin = await startDistributedStandin(OAUTH, [{ teamId: SECOND, teamDomain: 'second' }]);
    const config = distributedConfig(standin, OAUTH, {
      prefix: uniquePrefix(),
      env: { SLACK_SIGNING_SECRET: SIGNING_SECRET },
      servers: { fixture: fixtureCommand() },
    });
    replicas = [await start(config, createLogger('silent')), await start(config, createLogger('silent'))];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await standin.close();
  });

  const driverFor = (replica: RunningRelay, teamId: string): SlackDriver =>
    new SlackDriver({
      eventsUrl: `http://127.0.0.1:${replica.port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standin,
      teamId,
    });

  it('installs in a second workspace and posts its questions with that workspace’s token', async () => {
    const [first, second] = replicas;
    if (!first || !second) throw new Error('two replicas expected');
    standin.oauth.setRedirectUrl(`http://127.0.0.1:${first.port}/slack/oauth_redirect`);
    expect(await install(`http://127.0.0.1:${first.port}`, standin, SECOND)).toBe(200);
    const exchange = standin.calls.find((c) => c.method === 'oauth.v2.access');
    expect(exchange).toMatchObject({ ok: true, args: { client_id: OAUTH.clientId } });

    // The other replica serves the new workspace from the installation in Redis.
    const { status, card } = await askThroughInstall(driverFor(second, SECOND), standin, 'U2ND');
    expect(status).toBe(200);
    expect(card.teamId).toBe(SECOND);
    const lookups = standin.calls.filter((c) => ['conversations.open', 'users.info'].includes(c.method));
    expect(lookups.map((c) => c.teamId)).toEqual(lookups.map(() => SECOND));

    const channel = standin.dmChannelOf('U2ND');
    const [posted] = standin.messagesIn(channel);
    const decline = await driverFor(first, SECOND).clickButton({
      userId: 'U2ND',
      channel,
      ts: posted?.ts ?? '',
      actionId: 'elicit_decline',
    });
    expect(decline.status).toBe(200);
    const update = await standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === posted?.ts, 15_000);
    expect(update.teamId).toBe(SECOND);
    const result = await standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === channel && !JSON.stringify(c.args.blocks ?? '').includes('elicit_'),
      15_000,
    );
    expect(result.teamId).toBe(SECOND);
    expect(JSON.parse(resultText(result.args.blocks))).toEqual({ action: 'decline' });
  });

  it('ignores requests from a workspace that never installed the app', async () => {
    const [first] = replicas;
    if (!first) throw new Error('a replica expected');
    const command = await driverFor(first, 'T0NEVER').slashCommand({
      userId: 'UX',
      command: '/mcp',
      text: 'servers',
    });
    // Bolt acks what it cannot authorize with an empty 200 and runs no listener (an authorized
    // `/mcp servers` acks with the list of servers).
    expect(command).toEqual({ status: 200, body: '' });
  });
});
