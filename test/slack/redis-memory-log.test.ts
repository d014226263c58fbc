// /readyz's checks finding Redis out of memory, logged sparingly on an injected clock: a warn line at the first,
// then at most one every 5 min, an info line once Redis takes writes again; checks that could not tell change nothing.
import { describe, expect, it } from 'vitest';
import type { RedisCheck } from '../../src/readiness.js';
import type { RedisMemory } from '../../src/redis/index.js';
import { RedisMemoryLog } from '../../src/slack/redis-memory-log.js';
import { LOG_AGAIN_AFTER_MS } from '../../src/streak-lines.js';

const MIB = 1024 * 1024;
const FULL: RedisMemory = { usedBytes: 33 * MIB, maxBytes: 32 * MIB };
const OOM: RedisCheck = { readiness: 'oom', memory: FULL };
const OK: RedisCheck = { readiness: 'ok', memory: { usedBytes: 2 * MIB, maxBytes: 32 * MIB } };

function setUp() {
  let now = 1_000;
  const lines: { level: 'warn' | 'info'; obj: object }[] = [];
  const log = new RedisMemoryLog({
    clock: { now: () => now },
    logger: {
      warn: (obj: object) => lines.push({ level: 'warn', obj }),
      info: (obj: object) => lines.push({ level: 'info', obj }),
    },
  });
  const at = (ms: number, check: RedisCheck): void => {
    now = ms;
    log.checked(check);
  };
  return { lines, at };
}

describe('RedisMemoryLog', () => {
  it('warns at the first check out of memory, again at most every 5 min, and tells when writes are taken again', () => {
    const { lines, at } = setUp();
    at(1_000, OOM);
    at(11_000, OOM);
    at(1_000 + LOG_AGAIN_AFTER_MS - 1, OOM);
    const used = { usedBytes: FULL.usedBytes, maxBytes: FULL.maxBytes };
    expect(lines).toEqual([{ level: 'warn', obj: { ...used, outOfMemoryForMs: 0, checksSinceLastLine: 1 } }]);
    at(1_000 + LOG_AGAIN_AFTER_MS, OOM);
    expect(lines[1]).toEqual({
      level: 'warn',
      obj: { ...used, outOfMemoryForMs: LOG_AGAIN_AFTER_MS, checksSinceLastLine: 3 },
    });
    // Checks that could not tell (Redis away, INFO late or refused) neither end nor extend the stretch.
    at(400_000, { readiness: 'timeout', memory: undefined });
    at(401_000, { readiness: 'ok', memory: undefined });
    at(402_000, OK);
    expect(lines.slice(2)).toEqual([{ level: 'info', obj: { outOfMemoryForMs: 401_000, checks: 4 } }]);
    at(403_000, OK);
    expect(lines).toHaveLength(3);
  });

  it('tells at once of a stretch right after a logged end, and of its end', () => {
    const { lines, at } = setUp();
    at(1_000, OOM);
    at(2_000, OK);
    at(3_000, OOM);
    at(4_000, OK);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn', 'info']);
    expect(lines[3]).toEqual({ level: 'info', obj: { outOfMemoryForMs: 1_000, checks: 1 } });
  });
});
