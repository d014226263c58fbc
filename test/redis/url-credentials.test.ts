// REDIS_URL with REDIS_USERNAME and REDIS_PASSWORD (README, Configuration: "ACL user and password for every
// node (…; for REDIS_URL, the URL's own win)"): each setting fills in what the URL leaves out, and the URL's
// own user and password win where it has them. ioredis reads `redis://bot@host` as the password "" and
// `redis://:pw@host` as the user "", which hid the settings, so a URL naming only its user was refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnections, type RedisClient, type RedisSetting } from '../../src/redis/index.js';
import { open } from '../../src/redis/probe.js';
import { startServer, type Server } from '../topology/support/servers.js';

describe("REDIS_URL's credentials beside REDIS_USERNAME and REDIS_PASSWORD", () => {
  let dir: string;
  let server: Server;
  /** An ACL user `bot` with password `secret`; the default user is off, so only `bot` gets in. */
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-url-credentials-'));
    const acl = ['--user', 'default', 'off', '--user', 'bot', 'on', '>secret', '~*', '&*', '+@all'];
    server = await startServer(dir, [...acl, '--save', ''], /Ready to accept/);
  });
  afterAll(async () => {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const url = (credentials: string): string => `redis://${credentials}127.0.0.1:${server.port}`;

  /** The ACL user a command connection of `setting` is signed in as. */
  async function whoAmI(setting: RedisSetting): Promise<unknown> {
    const client: RedisClient = await new RedisConnections(setting).command('url-credentials-test');
    try {
      return await client.call('ACL', 'WHOAMI');
    } finally {
      client.disconnect();
    }
  }

  it('takes REDIS_PASSWORD for a URL that names only its user', async () => {
    expect(await whoAmI({ url: url('bot@'), password: 'secret' })).toBe('bot');
  });

  it('takes REDIS_USERNAME for a URL that names only its password', async () => {
    expect(await whoAmI({ url: url(':secret@'), username: 'bot' })).toBe('bot');
  });

  it('gives the copies BullMQ makes of a connection template the same credentials', async () => {
    const template = new RedisConnections({ url: url('bot@'), password: 'secret' }).template(
      'url-credentials-test',
    );
    if (!(template instanceof Redis)) throw new Error('a REDIS_URL template is one Redis');
    const copy = template.duplicate();
    try {
      expect(await copy.call('ACL', 'WHOAMI')).toBe('bot');
    } finally {
      copy.disconnect();
      template.disconnect();
    }
  });

  it("keeps the URL's own user and password over both settings", async () => {
    const setting = { url: url('bot:secret@'), username: 'nobody', password: 'wrong' };
    expect(await whoAmI(setting)).toBe('bot');
  });

  it('reads a percent-encoded password in the URL as the password', async () => {
    // The default user is off, so "bot" with the decoded password is the only way in; %73 is "s".
    expect(await whoAmI({ url: url('bot:%73ecret@') })).toBe('bot');
  });

  it("probes a URL that names only its user with REDIS_PASSWORD, as start-up's diagnosis does", async () => {
    const probe = await open({ password: 'secret' }, url('bot@'));
    if (!('client' in probe)) throw new Error(`the probe failed: ${String(probe.error)}`);
    try {
      expect(await probe.client.call('ACL', 'WHOAMI')).toBe('bot');
    } finally {
      probe.client.disconnect();
    }
  });
});
