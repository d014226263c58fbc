// What start-up says when the sentinels themselves are the problem. The README documents
// REDIS_SENTINEL_PASSWORD ("the sentinels' own password") apart from REDIS_PASSWORD (the master's and
// replicas'), so a sentinel refusing its password must name REDIS_SENTINEL_PASSWORD, not send the operator to
// REDIS_PASSWORD; and a REDIS_SENTINELS entry that answers but is a plain Redis, not a sentinel, must not be
// reported as "nothing answers".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../system/child.js';
import { exitWithin } from '../support/child-exit.js';
import { startServer, type Server } from './support/servers.js';
import { startBot } from './support/start-up.js';

const EXIT_WITHIN_MS = 30_000;

describe('start-up refusals that come from the sentinels', { timeout: 45_000 }, () => {
  let dir: string;
  let sentinel: Server;
  let plainRedis: Server;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-sentinel-refusals-'));
    // The master need not run: the sentinel refuses before the bot asks it anything.
    const master = await freePort();
    writeFileSync(
      join(dir, 'sentinel.conf'),
      `sentinel monitor known 127.0.0.1 ${master} 1\nrequirepass sentinel-secret-7f\n`,
    );
    sentinel = await startServer(dir, [join(dir, 'sentinel.conf'), '--sentinel'], /\+monitor master/);
    plainRedis = await startServer(dir, ['--save', ''], /Ready to accept/);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([sentinel?.kill(), plainRedis?.kill()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names REDIS_SENTINEL_PASSWORD when the sentinels refuse the one given', async () => {
    const run = startBot({
      REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`,
      REDIS_SENTINEL_MASTER: 'known',
      REDIS_SENTINEL_PASSWORD: 'not-the-sentinel-secret',
    });
    const exit = await exitWithin(run, EXIT_WITHIN_MS);
    expect(exit).toMatchObject({ code: 1 });
    expect(exit.stderr).toMatch(/REDIS_SENTINEL_PASSWORD/);
    expect(exit.stderr).not.toContain('not-the-sentinel-secret');
  });

  it('names REDIS_SENTINEL_PASSWORD when the sentinels need one and none is set', async () => {
    const run = startBot({ REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`, REDIS_SENTINEL_MASTER: 'known' });
    const exit = await exitWithin(run, EXIT_WITHIN_MS);
    expect(exit).toMatchObject({ code: 1 });
    expect(exit.stderr).toMatch(/REDIS_SENTINEL_PASSWORD/);
  });

  it('says a REDIS_SENTINELS entry that answers is not a sentinel, rather than that nothing answers', async () => {
    const run = startBot({ REDIS_SENTINELS: `127.0.0.1:${plainRedis.port}`, REDIS_SENTINEL_MASTER: 'known' });
    const exit = await exitWithin(run, EXIT_WITHIN_MS);
    expect(exit).toMatchObject({ code: 1 });
    expect(exit.stderr).toMatch(/REDIS_SENTINELS/);
    expect(exit.stderr).toMatch(/not a sentinel/i);
    expect(exit.stderr).not.toMatch(/nothing answers/);
  });
});
