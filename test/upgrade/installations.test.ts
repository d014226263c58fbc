// Rolling upgrade from 001d570 with Slack's token rotation: that release refreshed a rotating bot token in
// Bolt's authorize (@slack/oauth's InstallProvider, saving through storeInstallation, on each replica at once);
// this one refreshes it in BotTokenRefresh, one replica at a time under a claim, saving only over the refresh
// token it spent. The installation record keeps its layout (Bolt's Installation JSON plus `installedAt`). Here
// both run on one Redis against the stand-in, which revokes a refresh token once used: 001d570's side is the
// InstallProvider built as 001d570's src/slack/oauth.ts built it, over the same RedisInstallationStore (whose
// storeInstallation and fetchInstallation are 001d570's but for a helper). The record stays whole and usable
// whichever version refreshes, in either order and when both refresh at once.
import { InstallProvider } from '@slack/oauth';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributedApp, type DistributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { ROTATED_TOKEN_TTL_SEC, startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { boltLogger, slackCall as slackCallAt } from '../support/rotating-install.js';

const OAUTH = {
  clientId: '1111.5555',
  clientSecret: 'upgrade-secret',
  stateSecret: 'state-secret-of-sixteen-plus',
};
const TEAM = 'T0UPGRADE';
const QUERY = { teamId: TEAM, enterpriseId: undefined, isEnterpriseInstall: false } as const;
/** When 001d570's storeInstallation stamped the install, epoch ms. */
const INSTALLED_AT = 1_767_225_600_000;

let standin: SlackStandin;
const prefixes: string[] = [];
const connections: Redis[] = [];
const logger = boltLogger();

beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: 'xoxb-never-used-by-a-distributed-app',
    oauth: { clientId: OAUTH.clientId, clientSecret: OAUTH.clientSecret, tokenRotation: true },
    workspaces: [{ teamId: TEAM }],
  });
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
  await standin.close();
  await Promise.all(prefixes.map((p) => deleteUnder(p)));
});

function connection(): Redis {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  return redis;
}

/** A replica of this release; its clock `aheadMs` past the system's. */
function currentReplica(prefix: string, aheadMs = 0): DistributedApp {
  const store = new RedisInstallationStore(connection(), prefix);
  const clientOptions = { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } };
  return distributedApp(OAUTH, {
    installations: store,
    clientOptions,
    logger,
    now: () => Date.now() + aheadMs,
  });
}

/** A replica of 001d570: its Bolt authorize was InstallProvider's, built as in 001d570's src/slack/oauth.ts. */
function previousReplica(prefix: string): InstallProvider {
  const clientOptions = { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } };
  return new InstallProvider({
    ...OAUTH,
    installationStore: new RedisInstallationStore(connection(), prefix),
    logger,
    clientOptions,
    authorizationUrl: new URL('../oauth/v2/authorize', standin.apiUrl).toString(),
  });
}

const slackCall = (method: string, form: Record<string, string>) => slackCallAt(standin, method, form);

/**
 * Installs at the stand-in and writes the record exactly as 001d570 saved it (InstallProvider.handleCallback's
 * v2 installation, then storeInstallation's JSON.stringify({...installation, installedAt})), its token expired.
 */
async function installedByPreviousRelease(): Promise<{ prefix: string; key: string; record: string }> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const redirect = 'https://bot.example/slack/oauth_redirect';
  const page = `https://slack.example/oauth/v2/authorize?client_id=${OAUTH.clientId}&scope=chat:write&redirect_uri=${redirect}`;
  const back = standin.oauth.approve(page, { teamId: TEAM, userId: 'UADMIN' });
  const code = new URL(back).searchParams.get('code') ?? '';
  const form = { client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret, code, redirect_uri: redirect };
  const answer = await slackCall('oauth.v2.access', form);
  const expiredAt = Math.floor(Date.now() / 1000) - 60;
  const record =
    `{"team":{"id":"${TEAM}"},"user":{"id":"UADMIN"},"tokenType":"bot","isEnterpriseInstall":false,` +
    `"appId":"A0UPGRADE","authVersion":"v2","bot":{"scopes":["chat:write"],"token":"${String(answer.access_token)}",` +
    `"userId":"${String(answer.bot_user_id)}","id":"B0UPGRADE","refreshToken":"${String(answer.refresh_token)}",` +
    `"expiresAt":${expiredAt}},"installedAt":${INSTALLED_AT}}`;
  const key = `${prefix}:slack:installation:team:${TEAM}`;
  await connection().set(key, record);
  return { prefix, key, record };
}

/** The stored record with its bot token, refresh token and expiry left out: what no refresh may change. */
async function unrotated(key: string): Promise<unknown> {
  const text = await connection().get(key);
  const record = JSON.parse(text ?? 'null') as { bot: Record<string, unknown> };
  const rotated = new Set(['token', 'refreshToken', 'expiresAt']);
  const bot = Object.fromEntries(Object.entries(record.bot).filter(([name]) => !rotated.has(name)));
  return { ...record, bot };
}

const works = async (token: string | undefined) =>
  (await slackCall('auth.test', { token: String(token) })).ok === true;

describe('bot token rotation across the upgrade from 001d570', () => {
  it('is refreshed by either release in turn, the record kept whole and its token working', async () => {
    const { prefix, key } = await installedByPreviousRelease();
    const kept = await unrotated(key);
    expect(kept).toMatchObject({ installedAt: INSTALLED_AT });

    const byPrevious = await previousReplica(prefix).authorize(QUERY);
    expect(await works(byPrevious.botToken)).toBe(true);
    expect(await unrotated(key)).toEqual(kept);

    // 12 h on, by this release's clock, the previous release's token is due again: this release refreshes it.
    const current = currentReplica(prefix, ROTATED_TOKEN_TTL_SEC * 1000);
    const byCurrent = await current.authorize(QUERY);
    expect(byCurrent.botToken).not.toBe(byPrevious.botToken);
    expect(await works(byCurrent.botToken)).toBe(true);
    expect(await unrotated(key)).toEqual(kept);

    // The previous release reads what this one saved, and uses its token as it is (not due by its clock).
    expect((await previousReplica(prefix).authorize(QUERY)).botToken).toBe(byCurrent.botToken);
    expect(await unrotated(key)).toEqual(kept);
  });

  it('keeps the previous release’s refresh that spent the token first while this release’s was under way', async () => {
    const { prefix, key } = await installedByPreviousRelease();
    const kept = await unrotated(key);
    const held = standin.holdNext('oauth.v2.access');
    const current = currentReplica(prefix).clients.for(TEAM);
    await held.arrived;
    const byPrevious = await previousReplica(prefix).authorize(QUERY);
    held.release();

    // Slack refused this release's refresh (its refresh token spent): it goes on with the tokens saved.
    expect((await current).token).toBe(byPrevious.botToken);
    expect(await works(byPrevious.botToken)).toBe(true);
    expect(await unrotated(key)).toEqual(kept);
  });

  it('keeps this release’s refresh when the previous release’s, under way, is refused', async () => {
    const { prefix, key, record } = await installedByPreviousRelease();
    const kept = await unrotated(key);
    const held = standin.holdNext('oauth.v2.access');
    const previous = previousReplica(prefix).authorize(QUERY);
    await held.arrived;
    const byCurrent = await currentReplica(prefix).authorize(QUERY);
    held.release();

    // 001d570's authorize logs the refusal and answers this one request with the token it read (refreshed 2 h
    // before its expiry, it still works unless nobody used the bot for that long), saving nothing.
    const read = JSON.parse(record) as { bot: { token: string } };
    expect((await previous).botToken).toBe(read.bot.token);
    expect((await previousReplica(prefix).authorize(QUERY)).botToken).toBe(byCurrent.botToken);
    expect(await works(byCurrent.botToken)).toBe(true);
    expect(await unrotated(key)).toEqual(kept);
  });
});
