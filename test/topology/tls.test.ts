// The core flows on a Redis that serves TLS only, its certificate signed by a private CA made at test time:
// rediss:// with REDIS_TLS_CA_FILE, for every connection the bot opens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Harness } from '../system/harness.js';
import { accept, decline, describeHolderKilled, startOn, timeout } from './support/flows.js';
import { startSentinelGroup, type SentinelTopology } from './support/sentinel-group.js';
import { startCluster, type ClusterTopology } from './support/servers.js';
import {
  makeCerts,
  secureAccess,
  secureSentinelAccess,
  startTlsRedis,
  type TlsRedis,
} from './support/tls.js';

describe('on a TLS Redis with a private CA (rediss://, REDIS_TLS_CA_FILE)', () => {
  let redis: TlsRedis;
  let env: Record<string, string>;
  let h: Harness;
  beforeAll(async () => {
    redis = await startTlsRedis();
    env = { REDIS_URL: redis.url, REDIS_TLS_CA_FILE: redis.caFile };
    h = await startOn(env);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('relays an accepted form', () => accept(h, 'U1'));
  it('relays a decline and updates the card', () => decline(h, 'U2'));
  it('times a question out', () => timeout(h, 'U3'));
  it('delivers an answer handled by another replica to the holder', () => accept(h, 'U4', 1));
  describeHolderKilled(
    () => h,
    () => env,
    'U5',
  );
});

describe('on a Redis Cluster serving TLS only, to an ACL user (REDIS_USERNAME, REDIS_PASSWORD)', () => {
  let dir: string;
  let cluster: ClusterTopology;
  let h: Harness;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-tls-cluster-'));
    cluster = await startCluster(secureAccess(await makeCerts(dir)));
    h = await startOn(cluster.env);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('relays an accepted form', () => accept(h, 'U1', 1));
  it('times a question out', () => timeout(h, 'U2'));
});

describe('on a Sentinel group serving TLS only, with an ACL user and a sentinel password', () => {
  let dir: string;
  let group: SentinelTopology;
  let h: Harness;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay-tls-sentinel-'));
    const certs = await makeCerts(dir);
    group = await startSentinelGroup(secureAccess(certs), secureSentinelAccess(certs));
    h = await startOn(group.env);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await group?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('relays an accepted form', () => accept(h, 'U1', 1));
  it('times a question out', () => timeout(h, 'U2'));
});
