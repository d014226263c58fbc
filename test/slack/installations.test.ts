// Bolt's InstallationStore in Redis: each workspace's (or org's) installation under the deployment's prefix,
// readable by every replica, gone once deleted.
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
