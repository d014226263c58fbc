// The Redis probe behind /readyz: PONG is ok, a failed PING is unreachable, no answer in time is timeout.
import { describe, expect, it } from 'vitest';
import { probeRedis } from '../src/readiness.js';

describe('probeRedis', () => {
  it('reports ok on PONG, unreachable on a failed or refused PING, timeout when no answer comes', async () => {
    expect(await probeRedis(() => Promise.resolve(true))).toBe('ok');
    expect(await probeRedis(() => Promise.resolve(false))).toBe('unreachable');
    expect(await probeRedis(() => Promise.reject(new Error('ECONNREFUSED')))).toBe('unreachable');
    expect(await probeRedis(() => new Promise(() => undefined), 10)).toBe('timeout');
  });
});
