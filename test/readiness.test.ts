// The Redis probe behind /readyz: PONG is ok, a failed PING is unreachable, no answer in time is timeout, and a
// Redis that answers but is past its maxmemory (it refuses every write) is oom.
import { describe, expect, it } from 'vitest';
import { checkRedis, probeRedis } from '../src/readiness.js';
import { outOfMemory, parseMemoryInfo, type RedisMemory } from '../src/redis/index.js';

const MIB = 1024 * 1024;
const FULL: RedisMemory = { usedBytes: 33 * MIB, maxBytes: 32 * MIB };
const ROOMY: RedisMemory = { usedBytes: 2 * MIB, maxBytes: 32 * MIB };

describe('probeRedis', () => {
  it('reports ok on PONG, unreachable on a failed or refused PING, timeout when no answer comes', async () => {
    expect(await probeRedis(() => Promise.resolve(true))).toBe('ok');
    expect(await probeRedis(() => Promise.resolve(false))).toBe('unreachable');
    expect(await probeRedis(() => Promise.reject(new Error('ECONNREFUSED')))).toBe('unreachable');
    expect(await probeRedis(() => new Promise(() => undefined), 10)).toBe('timeout');
  });
});

describe('checkRedis', () => {
  const answering = (memory: () => Promise<RedisMemory | undefined>) => ({
    answers: () => Promise.resolve(true),
    memory,
  });

  it('reports oom when Redis answers past its maxmemory, ok below it or when its memory is unknown', async () => {
    expect(await checkRedis(answering(() => Promise.resolve(FULL)))).toEqual({
      readiness: 'oom',
      memory: FULL,
    });
    expect(await checkRedis(answering(() => Promise.resolve(ROOMY)))).toEqual({
      readiness: 'ok',
      memory: ROOMY,
    });
    const refused = answering(() => Promise.reject(new Error('NOPERM')));
    expect(await checkRedis(refused)).toEqual({ readiness: 'ok', memory: undefined });
    const late = answering(() => new Promise(() => undefined));
    expect(await checkRedis(late, 10)).toEqual({ readiness: 'ok', memory: undefined });
  });

  it('keeps the PING verdict when Redis does not answer, whatever its memory read says', async () => {
    const down = { answers: () => Promise.resolve(false), memory: () => Promise.resolve(FULL) };
    expect((await checkRedis(down)).readiness).toBe('unreachable');
  });
});

describe('parseMemoryInfo', () => {
  it('counts used_memory less mem_not_counted_for_evict against maxmemory, as Redis refuses writes', () => {
    const info = (used: number, notCounted: number, max: number): string =>
      `# Memory\r\nused_memory:${used}\r\nused_memory_human:1M\r\nmaxmemory:${max}\r\nmem_not_counted_for_evict:${notCounted}\r\n`;
    const buffered = parseMemoryInfo(info(33 * MIB, 2 * MIB, 32 * MIB));
    expect(buffered).toEqual({ usedBytes: 31 * MIB, maxBytes: 32 * MIB });
    expect(buffered && outOfMemory(buffered)).toBe(false);
    const full = parseMemoryInfo(info(33 * MIB, 0, 32 * MIB));
    expect(full && outOfMemory(full)).toBe(true);
    const unlimited = parseMemoryInfo(info(33 * MIB, 0, 0));
    expect(unlimited && outOfMemory(unlimited)).toBe(false);
    expect(parseMemoryInfo('# Memory\r\nused_memory:5\r\n')).toBeUndefined();
  });
});
