// `npm start` in sandbox mode with no Redis running (child processes): a local REDIS_URL that nothing answers
// (a closed port) and a redis-server on PATH give a private Redis, said in one line and gone on exit;
// without one on PATH the usual message stays. Whether a URL is local, and PATH's redis-server, unit-tested.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackRedis, redisServerOnPath } from '../../src/sandbox/private-redis.js';
import { freePort, runCli, waitForStdout } from './child.js';

const PRIVATE_LINE =
  /^elicit-relay sandbox: no Redis answers at (\S+); started a private (\S+) at redis:\/\/127\.0\.0\.1:(\d+) \(files in (\S+), removed on exit\)$/m;

/** Resolves with the error code of a TCP connection to the port (undefined when it connected). */
function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

describe('the sandbox without a Redis', () => {
  let dir: string;
  let withRedis: string;
  let withoutRedis: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-path-'));
    withRedis = join(dir, 'with');
    withoutRedis = join(dir, 'without');
    mkdirSync(withRedis);
    mkdirSync(withoutRedis);
    // The machine's redis-server (the fault tests start theirs from the same place).
    symlinkSync('/usr/bin/redis-server', join(withRedis, 'redis-server'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a private redis-server from PATH, says so in one line, and stops it on exit', async () => {
    const closed = await freePort();
    const port = await freePort();
    const run = runCli({ REDIS_URL: `redis://127.0.0.1:${closed}`, PORT: String(port), PATH: withRedis });
    const [, asked, binary, redisPort = '', files = ''] = await waitForStdout(run, PRIVATE_LINE);
    expect(asked).toBe(`redis://127.0.0.1:${closed}`);
    expect(binary).toBe(join(withRedis, 'redis-server'));
    expect(existsSync(files)).toBe(true);
    await waitForStdout(run, /open http:\/\/localhost:\d+\//);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    expect(run.stdout().match(new RegExp(PRIVATE_LINE.source, 'gm'))).toHaveLength(1);
    run.child.kill('SIGTERM');
    expect((await run.done).code).toBe(0);
    expect(existsSync(files)).toBe(false);
    expect(await connectError(Number(redisPort))).toBe('ECONNREFUSED');
  });

  it('keeps the message saying how to start Redis when no redis-server is on PATH', async () => {
    const closed = await freePort();
    const run = runCli({ REDIS_URL: `redis://127.0.0.1:${closed}`, PORT: '0', PATH: withoutRedis });
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(stderr).toContain(`127.0.0.1:${closed}`);
    expect(stderr).toContain('docker compose up -d redis');
    expect(run.stdout()).not.toMatch(PRIVATE_LINE);
  });

  it('stands in only for a Redis on this machine, found as an executable redis-server on PATH', () => {
    expect(isLoopbackRedis('redis://127.0.0.1:6379')).toBe(true);
    expect(isLoopbackRedis('redis://localhost:6380')).toBe(true);
    expect(isLoopbackRedis('redis://[::1]:6379')).toBe(true);
    expect(isLoopbackRedis('rediss://redis.example.com:6379')).toBe(false);
    const notExecutable = join(dir, 'plain');
    mkdirSync(notExecutable);
    writeFileSync(join(notExecutable, 'redis-server'), '');
    expect(redisServerOnPath(`${notExecutable}:${withoutRedis}`)).toBeUndefined();
    expect(redisServerOnPath(`${notExecutable}:${withRedis}`)).toBe(join(withRedis, 'redis-server'));
  });
});
