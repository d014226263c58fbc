// A call outside listeners (cards, the outbox, App Home: InstalledWorkspaces' clients) that Slack refuses
// token_expired although the bot's clock says the token still has hours left (Slack's clock ahead of the bot's,
// or a refresh that failed earlier) refreshes the token once and is made again with the new one; a replica still
// holding the refused token's client makes its call again with the token the first refresh saved, not another
// refresh.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributedApp, type DistributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { ROTATED_TOKEN_TTL_SEC, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import {
  boltLogger,
  installRotating,
  refreshesAt,
  startRotatingStandin,
} from '../support/rotating-install.js';

const OAUTH = {
  clientId: '1111.5555',
  clientSecret: 'expired-retry-secret',
  stateSecret: 'state-secret-of-sixteen-plus',
};
const TEAM = 'T0EXPIRED';
const prefix = uniquePrefix();

/** The bot's wall clock stays put; Slack's (the stand-in's) runs ahead of it by `skew` ms. */
const botNow = Date.now();
let skew = 0;

let standin: SlackStandin;
const connections: Redis[] = [];

function replica(): { store: RedisInstallationStore; app: DistributedApp } {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const store = new RedisInstallationStore(redis, prefix);
  const clientOptions = { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } };
  const deps = { installations: store, clientOptions, logger: boltLogger(), now: () => botNow };
  return { store, app: distributedApp(OAUTH, deps) };
}

/** Installs the app in TEAM at the stand-in and keeps the installation, its expiry by the bot's clock. */
const install = (store: RedisInstallationStore) =>
  installRotating(standin, store, { app: OAUTH, teamId: TEAM, now: () => botNow });

const refreshes = () => refreshesAt(standin);

beforeAll(async () => {
  standin = await startRotatingStandin(OAUTH, TEAM, () => botNow + skew);
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
  await standin.close();
  await deleteUnder(prefix);
});

describe('a call Slack refuses token_expired', () => {
  it('refreshes the token once and is made again, on this replica and on one holding the refused token', async () => {
    const [one, two] = [replica(), replica()];
    const installed = await install(one.store);
    const [first, second] = [await one.app.clients.for(TEAM), await two.app.clients.for(TEAM)];
    expect(first.token).toBe(installed.bot?.token);
    const before = refreshes().length;
    // Slack's clock passes the token's expiry; by the bot's it has 12 h left.
    skew = ROTATED_TOKEN_TTL_SEC * 1000 + 60_000;

    expect(await first.auth.test()).toMatchObject({ ok: true, team_id: TEAM });
    expect(await second.chat.postMessage({ channel: 'C0GENERAL', text: 'still here' })).toMatchObject({
      ok: true,
    });
    expect(
      refreshes()
        .slice(before)
        .map((r) => r.args.refresh_token),
    ).toEqual([installed.bot?.refreshToken]);
    const stored = await two.store.fetchInstallation({
      teamId: TEAM,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(stored.bot?.token).not.toBe(installed.bot?.token);
    // The next client handed out carries the new token: its calls go out without a refusal first.
    expect((await two.app.clients.for(TEAM)).token).toBe(stored.bot?.token);
  });
});
