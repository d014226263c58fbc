// Bolt's InstallationStore in Redis: each workspace's (or org's) installation under the deployment's prefix,
// readable by every replica, gone once deleted; a departure deletes only an installation made before it.
import type { Installation } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const workspace = (teamId: string, token: string): Installation<'v2', false> => ({
  team: { id: teamId, name: teamId },
  enterprise: undefined,
  user: { id: 'UADMIN', token: undefined, scopes: undefined },
  bot: { id: 'B1', userId: 'UBOT', token, scopes: ['chat:write'] },
  isEnterpriseInstall: false,
  appId: 'A1',
  tokenType: 'bot',
  authVersion: 'v2',
});

describe('RedisInstallationStore', () => {
  let redis: Redis;
  const prefix = uniquePrefix();
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('stores, fetches and deletes a workspace installation under the prefix, shared by every replica', async () => {
    const one = new RedisInstallationStore(redis, prefix);
    const other = new RedisInstallationStore(redis, prefix);
    await one.storeInstallation(workspace('T1', 'xoxb-t1'));
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    expect((await other.fetchInstallation(query)).bot?.token).toBe('xoxb-t1');
    expect(await redis.exists(`${prefix}:slack:installation:team:T1`)).toBe(1);
    await one.storeInstallation(workspace('T1', 'xoxb-t1-reinstalled'));
    expect((await other.fetchInstallation(query)).bot?.token).toBe('xoxb-t1-reinstalled');
    await other.deleteInstallation(query);
    await expect(one.fetchInstallation(query)).rejects.toMatchObject({ code: 'not_installed' });
  });

  it('keeps when each installation was made, through a token rotation that saves it again', async () => {
    let now = 1_000_000;
    const store = new RedisInstallationStore(redis, prefix, () => now);
    await store.storeInstallation(workspace('T3', 'xoxb-t3'));
    const query = { teamId: 'T3', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    const fetched = await store.fetchInstallation(query);
    expect(fetched).toMatchObject({ installedAt: 1_000_000 });
    now = 2_000_000;
    // Bolt saves a fetched installation again when it rotates its tokens: still the same installation.
    await store.storeInstallation({ ...fetched, bot: { ...fetched.bot!, token: 'xoxb-t3-rotated' } });
    expect(await store.fetchInstallation(query)).toMatchObject({ installedAt: 1_000_000 });
  });

  it('deletes for a departure only an installation made before it', async () => {
    let now = 5_000_000;
    const store = new RedisInstallationStore(redis, prefix, () => now);
    const query = { teamId: 'T4', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    await store.storeInstallation(workspace('T4', 'xoxb-t4'));
    // A departure from before the installation (a late redelivery after a reinstall) leaves it.
    expect(await store.deleteInstalledBefore(query, 5_000_000)).toBe('newer');
    expect(await store.deleteInstalledBefore(query, 4_000_000)).toBe('newer');
    expect((await store.fetchInstallation(query)).bot?.token).toBe('xoxb-t4');
    now = 6_000_000;
    expect(await store.deleteInstalledBefore(query, 5_000_001)).toBe('deleted');
    await expect(store.fetchInstallation(query)).rejects.toMatchObject({ code: 'not_installed' });
    expect(await store.deleteInstalledBefore(query, 5_000_001)).toBe('none');
  });

  it('deletes for any departure an installation saved before installations kept their time', async () => {
    const store = new RedisInstallationStore(redis, prefix);
    await redis.set(`${prefix}:slack:installation:team:T5`, JSON.stringify(workspace('T5', 'xoxb-t5')));
    const query = { teamId: 'T5', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    expect(await store.deleteInstalledBefore(query, 1)).toBe('deleted');
    expect(await redis.exists(`${prefix}:slack:installation:team:T5`)).toBe(0);
  });

  it('gives a token refresh claim to one replica at a time, and lets only its holder end it', async () => {
    const [one, other] = [
      new RedisInstallationStore(redis, prefix),
      new RedisInstallationStore(redis, prefix),
    ];
    const query = { teamId: 'T6', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    expect(await one.claimRefresh(query, 'one', 60_000)).toBe(true);
    expect(await other.claimRefresh(query, 'other', 60_000)).toBe(false);
    await other.releaseRefresh(query, 'other');
    expect(await other.claimRefresh(query, 'other', 60_000)).toBe(false);
    await one.releaseRefresh(query, 'one');
    expect(await other.claimRefresh(query, 'other', 60_000)).toBe(true);
    await other.releaseRefresh(query, 'other');
  });

  it('saves a refreshed installation only over the refresh token the refresh spent', async () => {
    const store = new RedisInstallationStore(redis, prefix);
    const query = { teamId: 'T7', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    const rotating = (token: string, refreshToken: string) => {
      const installation = workspace('T7', token);
      return { ...installation, bot: { ...installation.bot!, refreshToken, expiresAt: 1 } };
    };
    expect(await store.storeRefreshed(rotating('xoxe.xoxb-lost', 'xoxe-1-b'), 'xoxe-1-a')).toBe(false);
    await store.storeInstallation(rotating('xoxe.xoxb-1', 'xoxe-1-a'));
    expect(await store.storeRefreshed(rotating('xoxe.xoxb-2', 'xoxe-1-b'), 'xoxe-1-a')).toBe(true);
    // A second refresh of the same refresh token (the first already saved) is not saved over it.
    expect(await store.storeRefreshed(rotating('xoxe.xoxb-3', 'xoxe-1-c'), 'xoxe-1-a')).toBe(false);
    expect((await store.fetchInstallation(query)).bot).toMatchObject({
      token: 'xoxe.xoxb-2',
      refreshToken: 'xoxe-1-b',
    });
  });

  it('keys an org-wide install by its enterprise id', async () => {
    const store = new RedisInstallationStore(redis, prefix);
    await store.storeInstallation({
      ...workspace('T2', 'xoxb-org'),
      team: undefined,
      enterprise: { id: 'E1', name: 'Org' },
      isEnterpriseInstall: true,
    });
    const query = { teamId: undefined, enterpriseId: 'E1', isEnterpriseInstall: true } as const;
    expect((await store.fetchInstallation(query)).bot?.token).toBe('xoxb-org');
    await expect(
      store.fetchInstallation({ teamId: 'T2', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toMatchObject({ code: 'not_installed' });
  });
});
