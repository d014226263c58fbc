import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.js';

const load = (env: Record<string, string>, files: Record<string, string> = {}) =>
  loadConfig({ env, readFile: (path) => files[path] }).redis;

function keyOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.key;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the Redis topology settings', () => {
  it('reads one Redis from REDIS_URL, with TLS for rediss:// and the CA file', () => {
    expect(load({})).toEqual({
      topology: 'single',
      url: 'redis://127.0.0.1:6379',
      prefix: 'elicit-relay',
      retentionSec: 86400,
    });
    expect(
      load({ REDIS_URL: 'rediss://r:6380', REDIS_TLS_CA_FILE: '/ca.pem' }, { '/ca.pem': 'PEM' }),
    ).toMatchObject({
      url: 'rediss://r:6380',
      tls: { ca: 'PEM' },
    });
    expect(load({ REDIS_URL: 'rediss://r:6380' }).tls).toEqual({});
  });

  it('reads a Cluster from REDIS_CLUSTER_NODES with credentials and TLS from settings', () => {
    expect(
      load({
        REDIS_CLUSTER_NODES: 'a:7000, b:7001,[::1]:7002',
        REDIS_USERNAME: 'bot',
        REDIS_PASSWORD: 'pw',
        REDIS_TLS: 'true',
      }),
    ).toMatchObject({
      topology: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'bot',
      password: 'pw',
      tls: {},
    });
  });

  it('reads a Sentinel group from REDIS_SENTINELS and REDIS_SENTINEL_MASTER', () => {
    expect(
      load({
        REDIS_SENTINELS: 's1:26379,s2:26379',
        REDIS_SENTINEL_MASTER: 'main',
        REDIS_SENTINEL_PASSWORD: 'sp',
      }),
    ).toMatchObject({
      topology: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      master: 'main',
      sentinelPassword: 'sp',
    });
  });

  it.each([
    [{ REDIS_URL: 'redis://a', REDIS_CLUSTER_NODES: 'b:1' }, 'REDIS_CLUSTER_NODES'],
    [{ REDIS_CLUSTER_NODES: 'b:1', REDIS_SENTINELS: 'c:2', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
    [{ REDIS_CLUSTER_NODES: 'b' }, 'REDIS_CLUSTER_NODES'],
    [{ REDIS_CLUSTER_NODES: 'b:99999' }, 'REDIS_CLUSTER_NODES'],
    [{ REDIS_SENTINELS: 's:1' }, 'REDIS_SENTINEL_MASTER'],
    [{ REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINEL_MASTER'],
    [{ REDIS_URL: 'redis://a', REDIS_TLS_CA_FILE: '/ca.pem' }, 'REDIS_TLS_CA_FILE'],
    [{ REDIS_URL: 'rediss://a', REDIS_TLS_CA_FILE: '/missing.pem' }, 'REDIS_TLS_CA_FILE'],
    [{ REDIS_URL: 'redis://a', REDIS_TLS: 'true' }, 'REDIS_TLS'],
    [{ REDIS_CLUSTER_NODES: 'b:1', REDIS_TLS: 'yes' }, 'REDIS_TLS'],
    [{ REDIS_URL: 'http://a' }, 'REDIS_URL'],
  ])('refuses %j naming %s', (env, key) => {
    expect(keyOf(() => load(env, { '/ca.pem': 'PEM' }))).toBe(key);
  });
});
