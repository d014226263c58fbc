// Attacks on the installations' new parts, against real Redis: a sealed record copied under another workspace's
// key (a Redis writer giving workspace B workspace A's token), a token refresh claim left by a replica that died
// holding it, and a refresh answered with a token that has already expired (Slack's clock, or a faulty proxy).
import type { Installation } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sealer } from '../../src/mcp/index.js';
import { keys } from '../../src/redis/index.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { InstallationRecords } from '../../src/slack/state/sealed-installations.js';
import { BotTokenRefresh } from '../../src/slack/token-refresh.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const NOW = 1_700_000_000_000;

const installation = (teamId: string, expiresAt = 2_000_000_000): Installation<'v2', false> => ({
  team: { id: teamId, name: teamId },
  enterprise: undefined,
  user: { id: 'UADMIN', token: undefined, scopes: undefined },
  bot: {
    id: 'B1',
    userId: 'UBOT',
    token: `xoxb-${teamId}`,
    refreshToken: `xoxe-${teamId}`,
    expiresAt,
    scopes: [],
  },
  isEnterpriseInstall: false,
  appId: 'A1',
  tokenType: 'bot',
  authVersion: 'v2',
});
const query = (teamId: string) => ({ teamId, enterpriseId: undefined, isEnterpriseInstall: false }) as const;
const quiet = { info: () => undefined, error: () => undefined };

describe('installation attacks', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
  });

  it("reads a sealed record copied under another workspace's key as not installed, never as its token", async () => {
    const prefix = uniquePrefix();
    const records = new InstallationRecords(new Sealer(Buffer.alloc(32, 7)), () => undefined, true);
    const store = new RedisInstallationStore(redis, prefix, () => NOW, records);
    await store.storeInstallation(installation('T0VICTIM'));
    await store.storeInstallation(installation('T0THIEF'));
    const layout = keys(prefix);
    const victim = await redis.get(layout.installation('team', 'T0VICTIM'));
    await redis.set(layout.installation('team', 'T0THIEF'), victim ?? '');
    await expect(store.fetchInstallation(query('T0THIEF'))).rejects.toMatchObject({ code: 'not_installed' });
    expect((await store.fetchInstallation(query('T0VICTIM'))).bot?.token).toBe('xoxb-T0VICTIM');
  });

  it('refreshes an expired token once the claim a dead replica left lapses, not before', async () => {
    const prefix = uniquePrefix();
    const store = new RedisInstallationStore(redis, prefix, () => NOW);
    await store.storeInstallation(installation('T0CLAIM', NOW / 1000 - 1));
    // The dead replica's claim, as claimRefresh leaves it, with a short life for the test (30 s in production).
    await redis.set(keys(prefix).installationRefresh('team', 'T0CLAIM'), 'dead-replica', 'PX', 300);
    const spent: string[] = [];
    const refresh = new BotTokenRefresh({
      installations: store,
      exchange: (refreshToken) => {
        spent.push(refreshToken);
        return Promise.resolve({ access_token: 'xoxb-new', refresh_token: 'xoxe-new', expires_in: 43_200 });
      },
      now: () => NOW,
      logger: quiet,
    });
    const read = await refresh.fetchInstallation(query('T0CLAIM'));
    expect(read.bot?.token).toBe('xoxb-new');
    expect(spent).toEqual(['xoxe-T0CLAIM']);
  });

  it('spends a bounded number of refreshes when each answer is a token already expired', async () => {
    const prefix = uniquePrefix();
    const store = new RedisInstallationStore(redis, prefix, () => NOW);
    await store.storeInstallation(installation('T0STALE', NOW / 1000 - 1));
    let issued = 0;
    const refresh = new BotTokenRefresh({
      installations: store,
      exchange: () => {
        issued += 1;
        return Promise.resolve({
          access_token: `xoxb-${issued}`,
          refresh_token: `xoxe-${issued}`,
          expires_in: 0,
        });
      },
      now: () => NOW,
      logger: quiet,
    });
    const read = await refresh.fetchInstallation(query('T0STALE'));
    const renewed = await refresh.refreshRefused(query('T0STALE'), read.bot?.token ?? '');
    expect({ read: read.bot?.token, renewed: renewed.bot?.token, issued }).toEqual({
      read: 'xoxb-1',
      renewed: 'xoxb-3',
      issued: 3,
    });
  });
});
