// A Redis ACL user that lacks a command the bot needs stops start-up naming the command and the user's setting,
// instead of the bot starting and refusing every question later (a user without EVALSHA started, then failed
// each create with NOPERM; one without XAUTOCLAIM left the ended stream's readers failing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/redis/index.js';
import { QuestionStore } from '../../src/store/index.js';
import { loadRedisConfig } from '../support/config.js';
import { newQuestion, recordingLogger } from '../store/helpers.js';
import { runCli } from '../system/child.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../system/harness.js';
import { cli, startServer, type Server } from './support/servers.js';

const PREFIX = 'acl-probe';

/** An ACL user with every command on the deployment's keys, less `without` (e.g. `-evalsha`). */
async function addUser(server: Server, name: string, ...without: string[]): Promise<void> {
  await cli(server.port, 'ACL', 'SETUSER', name, 'on', '>pw', `~${PREFIX}:*`, '&*', '+@all', ...without);
}

/** Opens the question store as `user`, as the bot does at start-up; closes it when it opened. */
async function openAs(server: Server, user: string): Promise<unknown> {
  const env = { REDIS_URL: `redis://127.0.0.1:${server.port}`, REDIS_USERNAME: user, REDIS_PASSWORD: 'pw' };
  const opened = QuestionStore.open({
    ...loadRedisConfig({ ...env, REDIS_PREFIX: PREFIX }),
    holderId: `holder-${user}`,
    logger: recordingLogger(),
  });
  return opened.then(
    async (store) => {
      const q = await store.create(newQuestion());
      const ended = await store.finish(q.id, { action: 'decline' }, 'declined');
      await store.close();
      return ended.won;
    },
    (error: unknown) => error,
  );
}

describe('an ACL user lacking a command the bot needs', { timeout: 45_000 }, () => {
  let dir: string;
  let server: Server | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-acl-'));
    server = await startServer(dir, ['--save', '', '--appendonly', 'no'], /Ready to accept/);
    await addUser(server, 'everything');
    await addUser(server, 'noevalsha', '-evalsha');
    await addUser(server, 'noxautoclaim', '-xautoclaim');
  }, 30_000);
  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens, creates and finishes with a user that has every command on its keys', async () => {
    if (!server) throw new Error('no server');
    expect(await openAs(server, 'everything')).toBe(true);
  });

  it('refuses to open naming EVALSHA and REDIS_USERNAME', async () => {
    if (!server) throw new Error('no server');
    const refused = await openAs(server, 'noevalsha');
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({ code: 'redis_refused' });
    expect(String(refused)).toMatch(
      /REDIS_USERNAME: the Redis user "noevalsha" may not run EVALSHA on the keys/,
    );
    expect(String(refused)).toContain(`ACL SETUSER noevalsha +evalsha ~${PREFIX}:*`);
  });

  it('refuses to open naming XAUTOCLAIM', async () => {
    if (!server) throw new Error('no server');
    const refused = await openAs(server, 'noxautoclaim');
    expect(refused).toMatchObject({ code: 'redis_refused' });
    expect(String(refused)).toMatch(/the Redis user "noxautoclaim" may not run XAUTOCLAIM on the keys/);
  });

  it('stops the bot at start-up (exit 1) naming the missing command', async () => {
    if (!server) throw new Error('no server');
    const run = runCli(
      {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: 'http://127.0.0.1:9/api/',
        PORT: '0',
        REDIS_URL: `redis://noevalsha:pw@127.0.0.1:${server.port}`,
        REDIS_PREFIX: PREFIX,
      },
      [],
      'compiled',
    );
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_URL: the Redis user "noevalsha" may not run EVALSHA/);
    expect(stderr).not.toContain('pw@');
  });
});
