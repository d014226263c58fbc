// OAuth with Socket Mode: a bot behind a firewall serves the install pages on its own HTTP port, and the
// events of every installed workspace arrive over the one socket, each answered with its own token.
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
import { fixtureCommand } from '../setup/compiled.js';
import { APP_TOKEN } from './harness.js';

const OAUTH = { clientId: '1111.3333', clientSecret: 'client-secret-for-socket-tests' };
const SECOND = 'T0SOCKET';
describe('OAuth installs with Socket Mode', () => {
  let standin: SlackStandin;
  let relay: RunningRelay;
  beforeAll(async () => {
    standin = await startDistributedStandin(OAUTH, [{ teamId: SECOND, teamDomain: 'socket' }], APP_TOKEN);
    const config = distributedConfig(standin, OAUTH, {
      prefix: uniquePrefix(),
      env: { SLACK_APP_TOKEN: APP_TOKEN },
      servers: { fixture: fixtureCommand() },
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
