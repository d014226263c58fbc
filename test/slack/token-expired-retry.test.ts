// A call outside listeners (cards, the outbox, App Home: InstalledWorkspaces' clients) that Slack refuses
// token_expired although the bot's clock says the token still has hours left (Slack's clock ahead of the bot's,
// or a refresh that failed earlier) refreshes the token once and is made again with the new one; a replica still
// holding the refused token's client makes its call again with the token the first refresh saved, not another
// refresh.
import { LogLevel, type Installation } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributedApp, type DistributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import {
  ROTATED_TOKEN_TTL_SEC,
  startSlackStandin,
  type RecordedCall,
  type SlackStandin,
} from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

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
const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.INFO,
  setName: () => undefined,
};

function replica(): { store: RedisInstallationStore; app: DistributedApp } {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const store = new RedisInstallationStore(redis, prefix);
  const clientOptions = { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } };
  const deps = { installations: store, clientOptions, logger: silent, now: () => botNow };
  return { store, app: distributedApp(OAUTH, deps) };
}

async function slackCall(method: string, form: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${standin.apiUrl}${method}`, {
    method: 'POST',
    body: new URLSearchParams(form),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Installs the app in TEAM at the stand-in and keeps the installation, its expiry by the bot's clock. */
async function install(store: RedisInstallationStore): Promise<Installation<'v2', false>> {
  const page = `https://slack.example/oauth/v2/authorize?client_id=${OAUTH.clientId}&scope=chat:write`;
  const back = standin.oauth.approve(page, { teamId: TEAM, userId: 'UADMIN' });
  const code = new URL(back).searchParams.get('code') ?? '';
  const answer = await slackCall('oauth.v2.access', {
    client_id: OAUTH.clientId,
    client_secret: OAUTH.clientSecret,
    code,
  });
  const installation: Installation<'v2', false> = {
    team: { id: TEAM },
    enterprise: undefined,
    user: { id: 'UADMIN', token: undefined, scopes: undefined },
    bot: {
      id: 'B0BOT',
      userId: String(answer.bot_user_id),
      token: String(answer.access_token),
      refreshToken: String(answer.refresh_token),
      expiresAt: Math.floor(botNow / 1000) + Number(answer.expires_in),
      scopes: ['chat:write'],
    },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
  await store.storeInstallation(installation);
  return installation;
}

const refreshes = (): RecordedCall[] =>
  standin.calls.filter((c) => c.method === 'oauth.v2.access' && c.args.grant_type === 'refresh_token');

beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: 'xoxb-never-used-by-a-distributed-app',
    oauth: {
      clientId: OAUTH.clientId,
      clientSecret: OAUTH.clientSecret,
      redirectUrl: 'https://bot.example.com/slack/oauth_redirect',
      tokenRotation: true,
    },
    workspaces: [{ teamId: TEAM }],
    clock: () => botNow + skew,
  });
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
