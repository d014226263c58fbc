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
