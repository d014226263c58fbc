// A wrong topology setting stops start-up (exit 1) with a message naming the setting and the fix, for the
// bot as a child process: seeds that reach no node, a cluster with uncovered slots, a Sentinel group that
// does not know the master's name, a wrong password (also in the sandbox), a TLS handshake that fails.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli } from '../system/child.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../system/harness.js';
import { startServer, type Server } from './support/servers.js';
import { startTlsRedis, type TlsRedis } from './support/tls.js';

async function refusal(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const run = runCli(
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: '0',
      ...env,
    },
    [],
    'compiled',
  );
  return run.done;
}

// Each refusal starts the bot as a child process (compiled), which took well over 10 s through tsx on a busy machine.
describe('start-up refusals of a wrong Redis topology', { timeout: 45_000 }, () => {
  const servers: Server[] = [];
  let dir: string;
  let tls: TlsRedis;
  let withPassword: Server;
  let emptyClusterNode: Server;
  let sentinel: Server;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-refusals-'));
    tls = await startTlsRedis();
    withPassword = await startServer(dir, ['--requirepass', 'right', '--save', ''], /Ready to accept/);
    // A cluster node that owns no slot: the "cluster" it forms has every slot uncovered.
    emptyClusterNode = await startServer(
      dir,
      ['--cluster-enabled', 'yes', '--cluster-config-file', 'empty-nodes.conf', '--save', ''],
      /Ready to accept/,
    );
    writeFileSync(join(dir, 'sentinel.conf'), `sentinel monitor known 127.0.0.1 ${withPassword.port} 1\n`);
    sentinel = await startServer(dir, [join(dir, 'sentinel.conf'), '--sentinel'], /\+monitor master/);
    servers.push(withPassword, emptyClusterNode, sentinel);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await tls?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names REDIS_CLUSTER_NODES when no seed answers', async () => {
    const closed = await freePort();
    const { code, stderr } = await refusal({ REDIS_CLUSTER_NODES: `127.0.0.1:${closed}` });
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_CLUSTER_NODES: nothing answers; list at least one node that answers/);
  });

  it('names REDIS_CLUSTER_NODES when slots are uncovered', async () => {
    const { code, stderr } = await refusal({ REDIS_CLUSTER_NODES: `127.0.0.1:${emptyClusterNode.port}` });
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_CLUSTER_NODES: the cluster is down \(cluster_state:fail, 0 of 16384 slots/);
    expect(stderr).toContain('redis-cli --cluster fix');
  });

  it('names REDIS_SENTINEL_MASTER when the sentinels do not know the name', async () => {
    const { code, stderr } = await refusal({
      REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`,
      REDIS_SENTINEL_MASTER: 'unknown',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /REDIS_SENTINEL_MASTER: the sentinel at 127\.0\.0\.1:\d+ does not know a master named "unknown"/,
    );
  });

  it('names REDIS_PASSWORD when Redis refuses the credentials', async () => {
    const { code, stderr } = await refusal({ REDIS_URL: `redis://:wrong@127.0.0.1:${withPassword.port}` });
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_PASSWORD: Redis refused the credentials/);
    expect(stderr).not.toContain('wrong');
  });

  it('names REDIS_PASSWORD in the sandbox too, without printing the password', async () => {
    const run = runCli({ REDIS_URL: `redis://:sandbox-pw-9f2@127.0.0.1:${withPassword.port}`, PORT: '0' });
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_PASSWORD: Redis refused the credentials/);
    expect(stderr).not.toContain('sandbox-pw-9f2');
  });

  it('names REDIS_TLS_CA_FILE when the TLS handshake fails', async () => {
    const { code, stderr } = await refusal({ REDIS_URL: tls.url, REDIS_TLS_CA_FILE: tls.otherCaFile });
    expect(code).toBe(1);
    expect(stderr).toMatch(/REDIS_TLS_CA_FILE: the TLS handshake with rediss:\/\/127\.0\.0\.1:\d+\/? failed/);
  });
});
