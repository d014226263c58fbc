// The sandbox on a Redis that asks for a password: REDIS_PASSWORD (and REDIS_USERNAME, REDIS_TLS_CA_FILE) apply
// beside REDIS_URL as they do for the bot (README, Configuration). The sandbox took only the URL, so a password
// given as REDIS_PASSWORD was never sent and start-up failed "Redis refused the credentials".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { startServer, type Server } from '../topology/support/servers.js';

describe('the sandbox on a Redis with an ACL user', () => {
  let dir: string;
  let server: Server;
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-sandbox-acl-'));
    const acl = ['--user', 'default', 'off', '--user', 'bot', 'on', '>secret', '~*', '&*', '+@all'];
    server = await startServer(dir, [...acl, '--save', ''], /Ready to accept/);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with REDIS_USERNAME and REDIS_PASSWORD given beside the URL', async () => {
    sandbox = await startSandbox({
      port: 0,
      redisUrl: `redis://127.0.0.1:${server.port}`,
      redisAccess: { username: 'bot', password: 'secret' },
      redisPrefix: 'sandbox-acl',
      logger: createLogger('silent'),
    });
    const ready = await fetch(`http://127.0.0.1:${sandbox.botPort}/readyz`);
    expect(ready.status).toBe(200);
  });
});
