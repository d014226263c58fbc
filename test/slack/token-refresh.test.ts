// A rotating bot token is refreshed before it is used, on whichever path uses it: Bolt's authorize (listeners)
// and InstalledWorkspaces (cards, the outbox, App Home) read installations through one refresh, coordinated in
// Redis across replicas. The refresh's answer never lands over a reinstall made meanwhile, and one Slack refuses
// fails the call with Slack's code, logged.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { distributedApp, type DistributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { ROTATED_TOKEN_TTL_SEC, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import {
  boltLogger,
  installRotating,
  refreshesAt,
  slackCall as slackCallAt,
  startRotatingStandin,
} from '../support/rotating-install.js';

const OAUTH = {
  clientId: '1111.4444',
  clientSecret: 'refresh-secret',
  stateSecret: 'state-secret-of-sixteen-plus',
};
const TEAM = 'T0REFRESH';
const QUERY = { teamId: TEAM, enterpriseId: undefined, isEnterpriseInstall: false } as const;
const prefix = uniquePrefix();

/** The bot's and Slack's wall clock: still, but for the test moving it on. */
const start = Date.now();
let ahead = 0;
const now = (): number => start + ahead;

let standin: SlackStandin;
const connections: Redis[] = [];
const errors: string[] = [];
const logger = boltLogger((...msg: unknown[]) => void errors.push(msg.map(String).join(' ')));

/** One replica's view: its own Redis connection to the shared installations, and its distributed app. */
function replica(): { store: RedisInstallationStore; app: DistributedApp } {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const store = new RedisInstallationStore(redis, prefix);
  const clientOptions = { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } };
  return { store, app: distributedApp(OAUTH, { installations: store, clientOptions, logger, now }) };
}

/** Installs the app in TEAM at the stand-in (authorize page, then oauth.v2.access) and keeps the installation. */
const install = (store: RedisInstallationStore) =>
  installRotating(standin, store, { app: OAUTH, teamId: TEAM, now });

const slackCall = (method: string, form: Record<string, string>) => slackCallAt(standin, method, form);

const refreshes = () => refreshesAt(standin);

beforeAll(async () => {
  standin = await startRotatingStandin(OAUTH, TEAM, now);
});
beforeEach(() => {
  errors.length = 0;
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
  await standin.close();
  await deleteUnder(prefix);
});

describe('a rotating bot token', () => {
  it('is refreshed once for Bolt’s authorize and the calls outside listeners, on two replicas', async () => {
    const [one, two] = [replica(), replica()];
    const installed = await install(one.store);
    const before = refreshes().length;
    ahead += ROTATED_TOKEN_TTL_SEC * 1000;

    const [a, b, c, d] = await Promise.all([
      one.app.authorize(QUERY),
      two.app.authorize(QUERY),
      one.app.clients.for(TEAM),
      two.app.clients.for(TEAM),
    ]);
    const tokens = [a.botToken, b.botToken, c.token, d.token];
    expect(new Set(tokens).size).toBe(1);
    expect(a.botToken).not.toBe(installed.bot?.token);
    expect(await slackCall('auth.test', { token: String(a.botToken) })).toMatchObject({
      ok: true,
      team_id: TEAM,
    });
    expect(
      refreshes()
        .slice(before)
        .map((r) => r.args.refresh_token),
    ).toEqual([installed.bot?.refreshToken]);
    const stored = await two.store.fetchInstallation(QUERY);
    expect(stored.bot).toMatchObject({ token: a.botToken, expiresAt: Math.floor(now() / 1000) + 43_200 });
  });

  it('is not refreshed while more than two hours are left', async () => {
    const { store, app } = replica();
    const installed = await install(store);
    const before = refreshes().length;
    ahead += ROTATED_TOKEN_TTL_SEC * 1000 - 2 * 3_600_000 - 60_000;
    expect((await app.authorize(QUERY)).botToken).toBe(installed.bot?.token);
    expect(refreshes()).toHaveLength(before);
    ahead += 120_000;
    expect((await app.authorize(QUERY)).botToken).not.toBe(installed.bot?.token);
    expect(refreshes()).toHaveLength(before + 1);
  });

  it('keeps a reinstall made while its refresh was under way', async () => {
    const { store, app } = replica();
    await install(store);
    ahead += ROTATED_TOKEN_TTL_SEC * 1000;
    const held = standin.holdNext('oauth.v2.access');
    const refreshed = app.clients.for(TEAM);
    await held.arrived;
    const reinstalled = await install(store);
    held.release();
    expect((await refreshed).token).toBe(reinstalled.bot?.token);
    expect((await store.fetchInstallation(QUERY)).bot).toEqual(reinstalled.bot);
  });

  it('fails the call with Slack’s code when Slack refuses the refresh, and logs it', async () => {
    const { store, app } = replica();
    const installed = await install(store);
    // Spent elsewhere (another deployment sharing the app's credentials): Slack refuses it from now on.
    await slackCall('oauth.v2.access', {
      client_id: OAUTH.clientId,
      client_secret: OAUTH.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: String(installed.bot?.refreshToken),
    });
    ahead += ROTATED_TOKEN_TTL_SEC * 1000;
    await expect(app.clients.for(TEAM)).rejects.toMatchObject({ data: { error: 'invalid_refresh_token' } });
    expect(errors).toEqual([expect.stringContaining(`bot token refresh of workspace ${TEAM}`)]);
    expect((await store.fetchInstallation(QUERY)).bot?.refreshToken).toBe(installed.bot?.refreshToken);
  });
});
