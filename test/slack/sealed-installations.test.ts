// Slack installations at rest: with ELICIT_RELAY_TOKEN_KEY and ELICIT_RELAY_SEAL_INSTALLATIONS set, each record (bot, user and refresh tokens) is
// sealed as MCP sign-in tokens are (AES-256-GCM, bound to its Redis key), with the same rotation rules; plain
// records written before the key was set still read and are sealed when next written; a record no configured
// key opens is warned about by its Redis key and its workspace reads as not installed.
import type { Installation } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { Lifecycle } from '../../src/lifecycle.js';
import { Sealer } from '../../src/mcp/index.js';
import { openState } from '../../src/persistence.js';
import { SlackState } from '../../src/slack/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { captureLogs } from './log-capture.js';

const KEY = Buffer.alloc(32, 3);
const NEW_KEY = Buffer.alloc(32, 4);
const OTHER_KEY = Buffer.alloc(32, 5);
const prefix = uniquePrefix();

const rotating = (teamId: string, token: string, refreshToken: string): Installation<'v2', false> => ({
  team: { id: teamId, name: teamId },
  enterprise: undefined,
  user: { id: 'UADMIN', token: `xoxp-user-${teamId}`, scopes: undefined },
  bot: { id: 'B1', userId: 'UBOT', token, refreshToken, expiresAt: 2_000_000_000, scopes: ['chat:write'] },
  isEnterpriseInstall: false,
  appId: 'A1',
  tokenType: 'bot',
  authVersion: 'v2',
});
const query = (teamId: string) => ({ teamId, enterpriseId: undefined, isEnterpriseInstall: false }) as const;
const recordKey = (teamId: string) => `${prefix}:slack:installation:team:${teamId}`;

/** The text Redis holds at `key`, read on a connection of its own. */
async function stored(key: string): Promise<string | null> {
  const redis = new Redis(redisUrl());
  try {
    return await redis.get(key);
  } finally {
    await redis.quit();
  }
}

describe('Slack installations sealed with ELICIT_RELAY_TOKEN_KEY', () => {
  let redis: Redis;
  const warnings: { obj: object; msg: string }[] = [];
  const logger = {
    info: () => undefined,
    warn: (obj: object, msg: string) => void warnings.push({ obj, msg }),
  };
  const opened: SlackState[] = [];
  /**
   * One replica's Slack state, opening and sealing with `sealer` (none: plain, as before the key was set);
   * `sealWrites` false: it opens sealed records but writes plain (ELICIT_RELAY_SEAL_INSTALLATIONS unset).
   */
  async function replica(sealer?: Sealer, sealWrites = true): Promise<SlackState> {
    const holderId = `replica-${opened.length}`;
    const state = await SlackState.open({
      url: redisUrl(),
      prefix,
      holderId,
      logger,
      ...(sealer ? { sealer, sealWrites } : {}),
    });
    opened.push(state);
    return state;
  }
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await Promise.all(opened.map((state) => state.close()));
    await redis.quit();
    await deleteUnder(prefix);
  });

  it('keeps no token readable in Redis, and every replica with the key reads the installation', async () => {
    const [one, other] = [await replica(new Sealer(KEY)), await replica(new Sealer(KEY))];
    await one.installations.storeInstallation(rotating('T1', 'xoxe.xoxb-t1', 'xoxe-1-t1'));
    const stored = (await redis.get(recordKey('T1'))) ?? '';
    for (const secret of ['xoxe.xoxb-t1', 'xoxe-1-t1', 'xoxp-user-T1']) expect(stored).not.toContain(secret);
    const fetched = await other.installations.fetchInstallation(query('T1'));
    expect(fetched.bot).toMatchObject({ token: 'xoxe.xoxb-t1', refreshToken: 'xoxe-1-t1' });
    expect(fetched.user.token).toBe('xoxp-user-T1');
  });

  it('reads a plain record written before the key was set, and seals it when next written', async () => {
    const before = await replica();
    await before.installations.storeInstallation(rotating('T2', 'xoxe.xoxb-t2', 'xoxe-1-t2a'));
    expect(await redis.get(recordKey('T2'))).toContain('xoxe.xoxb-t2');
    const after = await replica(new Sealer(KEY));
    const read = await after.installations.fetchInstallation(query('T2'));
    expect(read.bot?.token).toBe('xoxe.xoxb-t2');
    // A token refresh writes it next: saved over the plain record's refresh token, sealed.
    const refreshed = rotating('T2', 'xoxe.xoxb-t2-new', 'xoxe-1-t2b');
    expect(await after.installations.storeRefreshed(refreshed, 'xoxe-1-t2a')).toBe(true);
    expect(await redis.get(recordKey('T2'))).not.toContain('xoxe');
    expect((await after.installations.fetchInstallation(query('T2'))).bot?.token).toBe('xoxe.xoxb-t2-new');
    // Only over the refresh token the refresh spent, sealed as it is now.
    expect(await after.installations.storeRefreshed(rotating('T2', 'x', 'y'), 'xoxe-1-t2a')).toBe(false);
    expect((await after.installations.fetchInstallation(query('T2'))).bot?.refreshToken).toBe('xoxe-1-t2b');
  });

  it('opens a record sealed with the previous key during a rotation, and seals it with the new key', async () => {
    const old = await replica(new Sealer(KEY));
    await old.installations.storeInstallation(rotating('T3', 'xoxe.xoxb-t3', 'xoxe-1-t3'));
    const sealedBefore = await redis.get(recordKey('T3'));
    const rotated = await replica(new Sealer(NEW_KEY, KEY));
    expect((await rotated.installations.fetchInstallation(query('T3'))).bot?.token).toBe('xoxe.xoxb-t3');
    const sealedAfter = await redis.get(recordKey('T3'));
    expect(sealedAfter).not.toBe(sealedBefore);
    // Sealed with the new key now: a replica that no longer has the old one opens it.
    const newOnly = await replica(new Sealer(NEW_KEY));
    expect((await newOnly.installations.fetchInstallation(query('T3'))).bot?.token).toBe('xoxe.xoxb-t3');
  });

  it('reads a record no configured key opens as not installed, warning with its Redis key, and keeps it', async () => {
    const sealedElsewhere = await replica(new Sealer(OTHER_KEY));
    await sealedElsewhere.installations.storeInstallation(rotating('T4', 'xoxe.xoxb-t4', 'xoxe-1-t4'));
    warnings.length = 0;
    const wrong = await replica(new Sealer(KEY));
    await expect(wrong.installations.fetchInstallation(query('T4'))).rejects.toMatchObject({
      code: 'not_installed',
    });
    expect(warnings.map((w) => w.obj)).toEqual([{ key: recordKey('T4'), code: 'unknown_key' }]);
    expect(warnings[0]?.msg).toContain('not installed');
    // Not deleted: setting the key that sealed it again brings the workspace back.
    expect((await sealedElsewhere.installations.fetchInstallation(query('T4'))).bot?.token).toBe(
      'xoxe.xoxb-t4',
    );
    // A departure still deletes it by the install time kept beside the sealed record.
    expect(await wrong.installations.deleteInstalledBefore(query('T4'), Date.now() + 1)).toBe('deleted');
  });

  it('reads a sealed record on a replica without the key as not installed, warning with its Redis key', async () => {
    const sealing = await replica(new Sealer(KEY));
    await sealing.installations.storeInstallation(rotating('T5', 'xoxe.xoxb-t5', 'xoxe-1-t5'));
    warnings.length = 0;
    const keyless = await replica();
    await expect(keyless.installations.fetchInstallation(query('T5'))).rejects.toMatchObject({
      code: 'not_installed',
    });
    expect(warnings.map((w) => w.obj)).toEqual([{ key: recordKey('T5'), code: 'unknown_key' }]);
  });

  it('opens sealed records but writes plain ones while ELICIT_RELAY_SEAL_INSTALLATIONS is off', async () => {
    const sealing = await replica(new Sealer(KEY));
    await sealing.installations.storeInstallation(rotating('T10', 'xoxe.xoxb-t10', 'xoxe-1-t10'));
    const keyOnly = await replica(new Sealer(KEY), false);
    expect((await keyOnly.installations.fetchInstallation(query('T10'))).bot?.token).toBe('xoxe.xoxb-t10');
    await keyOnly.installations.storeInstallation(rotating('T11', 'xoxe.xoxb-t11', 'xoxe-1-t11'));
    // A replica of the previous release, which opens no sealed record, reads it.
    expect(await redis.get(recordKey('T11'))).toContain('xoxe.xoxb-t11');
  });
});

describe('the sealing of Slack installations at start-up', () => {
  const wiringPrefix = uniquePrefix();
  afterAll(() => deleteUnder(wiringPrefix));

  /** Opens the bot's Redis state as start-up does with `env`, runs `use`, and returns the "unencrypted" lines. */
  async function started(env: Record<string, string>, use: (state: SlackState) => Promise<void>) {
    const logs = captureLogs();
    const config = loadConfig({
      env: {
        SLACK_CLIENT_ID: '1111.2222',
        SLACK_CLIENT_SECRET: 'client-secret',
        SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
        SLACK_SIGNING_SECRET: 'signing-secret',
        REDIS_URL: redisUrl(),
        REDIS_PREFIX: wiringPrefix,
        ...env,
      },
      readFile: () => undefined,
    });
    const parts = new Lifecycle();
    try {
      const { state } = await openState(config, { holderId: 'wiring', logger: logs.logger }, parts);
      await use(state);
    } finally {
      await parts.stop();
    }
    return logs.lines.filter((line) => String(line.msg).includes('unencrypted'));
  }

  it('says once at start-up, without ELICIT_RELAY_TOKEN_KEY, that installations are kept unencrypted', async () => {
    const said = await started({}, async (state) => {
      await state.installations.storeInstallation(rotating('T6', 'xoxe.xoxb-t6', 'xoxe-1-t6'));
    });
    // Once, at info (pino's 30).
    expect(said.map((line) => line.level)).toEqual([30]);
    expect(String(said[0]?.msg)).toContain('set ELICIT_RELAY_TOKEN_KEY');
    expect(await stored(`${wiringPrefix}:slack:installation:team:T6`)).toContain('xoxe.xoxb-t6');
  });

  it('writes installations plain with the key alone, opening sealed ones, until ELICIT_RELAY_SEAL_INSTALLATIONS is on', async () => {
    const key = { ELICIT_RELAY_TOKEN_KEY: KEY.toString('base64') };
    await started({ ...key, ELICIT_RELAY_SEAL_INSTALLATIONS: 'true' }, async (state) => {
      await state.installations.storeInstallation(rotating('T8', 'xoxe.xoxb-t8', 'xoxe-1-t8a'));
    });
    const said = await started(key, async (state) => {
      expect((await state.installations.fetchInstallation(query('T8'))).bot?.token).toBe('xoxe.xoxb-t8');
      await state.installations.storeInstallation(rotating('T9', 'xoxe.xoxb-t9', 'xoxe-1-t9'));
    });
    // A replica of the previous release reads T9; the start-up line says how to turn sealing on.
    expect(await stored(`${wiringPrefix}:slack:installation:team:T9`)).toContain('xoxe.xoxb-t9');
    expect(String(said[0]?.msg)).toContain('ELICIT_RELAY_SEAL_INSTALLATIONS=true');
  });

  it('seals installations with ELICIT_RELAY_TOKEN_KEY and ELICIT_RELAY_SEAL_INSTALLATIONS, and says nothing of it', async () => {
    const env = { ELICIT_RELAY_TOKEN_KEY: KEY.toString('base64'), ELICIT_RELAY_SEAL_INSTALLATIONS: 'true' };
    const said = await started(env, async (state) => {
      await state.installations.storeInstallation(rotating('T7', 'xoxe.xoxb-t7', 'xoxe-1-t7'));
      expect((await state.installations.fetchInstallation(query('T7'))).bot?.token).toBe('xoxe.xoxb-t7');
    });
    expect(said).toEqual([]);
    expect(await stored(`${wiringPrefix}:slack:installation:team:T7`)).not.toContain('xoxe.xoxb-t7');
  });
});
