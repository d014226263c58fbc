// OAuth with Socket Mode: a bot behind a firewall serves the install pages on its own HTTP port, and the
// events of every installed workspace arrive over the one socket, each answered with its own token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSlackConfig } from '../support/config.js';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { SlackDriver, startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { askThroughInstall, install } from '../support/oauth-install.js';
import { fixtureCommand } from '../setup/compiled.js';
import { APP_TOKEN } from './harness.js';

const OAUTH = { clientId: '1111.3333', clientSecret: 'client-secret-for-socket-tests' };
const SECOND = 'T0SOCKET';
describe('OAuth installs with Socket Mode', () => {
  let standin: SlackStandin;
  let relay: RunningRelay;
  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: 'xoxb-never-used-by-a-distributed-app',
      appToken: APP_TOKEN,
      oauth: OAUTH,
      workspaces: [{ teamId: SECOND, teamDomain: 'socket' }],
    });
    const config = loadSlackConfig({
      env: {
        SLACK_CLIENT_ID: OAUTH.clientId,
        SLACK_CLIENT_SECRET: OAUTH.clientSecret,
        SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
        SLACK_APP_TOKEN: APP_TOKEN,
        SLACK_API_URL: standin.apiUrl,
        REDIS_URL: redisUrl(),
        REDIS_PREFIX: uniquePrefix(),
        PORT: '0',
        ELICIT_RELAY_CONFIG: 'fixture.json',
      },
      readFile: () =>
        JSON.stringify({
          mcpServers: { fixture: fixtureCommand() },
        }),
    });
    expect(config.slack.mode).toBe('socket');
    relay = await start(config, createLogger('silent'));
  });
  afterAll(async () => {
    await relay.stop();
    await standin.close();
  });

  it('installs through the bot’s own HTTP port and answers that workspace’s command over the socket with its token', async () => {
    standin.oauth.setRedirectUrl(`http://127.0.0.1:${relay.port}/slack/oauth_redirect`);
    expect(await install(`http://127.0.0.1:${relay.port}`, standin, SECOND)).toBe(200);

    const driver = new SlackDriver({ transport: standin.socketTransport(), standin, teamId: SECOND });
    const { status, card } = await askThroughInstall(driver, standin, 'U2ND');
    expect(status).toBe(200);
    expect(card.teamId).toBe(SECOND);
  });
});
