// Slack retries an Events API delivery it got no 200 for (at once, after 1 minute, after 5 minutes,
// X-Slack-Retry-Num). A workspace that removed the app while the bot was unreachable, and installed it again
// before Slack's retry of `app_uninstalled` came, keeps its new installation: the retry's event_time is older
// than the installation's installedAt, so it describes the old one (src/slack/uninstalls.ts).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { keys } from '../../src/redis/index.js';
import { SlackDriver, VERIFICATION_TOKEN, type SlackStandin } from '../../src/standin/index.js';
import { eventCallback } from '../../src/standin/payloads.js';
import { fixtureCommand } from '../setup/compiled.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { distributedConfig, install, startDistributedStandin } from '../support/oauth-install.js';
import { SIGNING_SECRET } from './harness.js';

const OAUTH = { clientId: '5555.6666', clientSecret: 'client-secret-for-tests' };
const TEAM = 'T0REINSTALL';

describe('app_uninstalled delivered again after a reinstall', () => {
  let standin: SlackStandin;
  let replica: RunningRelay;
  let redis: Redis;
  let prefix: string;
  beforeAll(async () => {
    standin = await startDistributedStandin(OAUTH, [{ teamId: TEAM, teamDomain: 'reinstall' }]);
    prefix = uniquePrefix();
    const config = distributedConfig(standin, OAUTH, {
      prefix,
      env: { SLACK_SIGNING_SECRET: SIGNING_SECRET },
      servers: { fixture: fixtureCommand() },
    });
    replica = await start(config, createLogger('silent'));
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis.disconnect();
    await replica.stop();
    await standin.close();
    await deleteKeysUnder(redisUrl(), prefix);
  });

  it('keeps the installation made after the uninstall that a late retry reports', async () => {
    const base = `http://127.0.0.1:${replica.port}`;
    standin.oauth.setRedirectUrl(`${base}/slack/oauth_redirect`);
    expect(await install(base, standin, TEAM)).toBe(200);

    // The workspace removes the app (Slack revokes the token); the bot does not get the event in time.
    const removedAt = Date.now();
    const oldToken = [...standin.oauth.installed].find(([, who]) => who.teamId === TEAM)?.[0] ?? '';
    standin.oauth.installed.delete(oldToken);
    const eventId = 'Ev0LATEUNINSTALL';
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    // An admin installs the app again: a new, working bot token.
    expect(await install(base, standin, TEAM)).toBe(200);
    const stored = async () =>
      JSON.parse((await redis.get(keys(prefix).installation('team', TEAM))) ?? 'null') as {
        bot?: { token?: string };
      } | null;
    const newToken = (await stored())?.bot?.token;
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(oldToken);

    // Slack's retry of the old removal arrives now, its event_time that of the removal.
    const driver = new SlackDriver({
      eventsUrl: `${base}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standin,
      teamId: TEAM,
    });
    const delivered = await driver.send(
      {
        json: eventCallback({
          identity: standin.identity,
          teamId: TEAM,
          token: VERIFICATION_TOKEN,
          nowMs: removedAt,
          event: { type: 'app_uninstalled' },
          eventId,
        }),
      },
      { retry: { num: 1, reason: 'http_timeout' } },
    );
    expect(delivered.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(
      (await stored())?.bot?.token,
      'a retried app_uninstalled older than the current installation must not delete it: the workspace has the ' +
        'app installed and its new token works',
    ).toBe(newToken);

    // Removing the app now (an event newer than the installation) still deletes it.
    const removed = await driver.send({
      json: eventCallback({
        identity: standin.identity,
        teamId: TEAM,
        token: VERIFICATION_TOKEN,
        nowMs: Date.now(),
        event: { type: 'app_uninstalled' },
        eventId: 'Ev0NEWUNINSTALL',
      }),
    });
    expect(removed.status).toBe(200);
    await vi.waitFor(async () => expect(await stored()).toBeNull(), { timeout: 5_000, interval: 100 });
  });
});
