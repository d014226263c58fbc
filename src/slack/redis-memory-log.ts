// Redis out of memory as /readyz's checks find it (src/readiness.ts checkRedis: it answers PING and refuses every
// write), logged sparingly (streak-lines.ts): a probe comes every few seconds (Kubernetes: 10 s) for as long as it
// lasts. A warn line at the first check that finds it, then at most one every 5 min counting the checks between,
// and an info line once a check finds Redis below its limit after a logged one. A check that could not tell (Redis
// away or late, INFO refused) neither extends nor ends it. The operator's only other sign is the metrics.
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { RedisCheck } from '../readiness.js';
import type { RedisMemory } from '../redis/index.js';
import { StreakLines } from '../streak-lines.js';

export class RedisMemoryLog {
  private readonly lines: StreakLines;

  constructor(private readonly deps: { logger: Pick<Logger, 'warn' | 'info'>; clock: Pick<Clock, 'now'> }) {
    this.lines = new StreakLines(deps.clock);
  }

  /** One /readyz check's verdict on Redis and the memory it read. */
  checked({ readiness, memory }: RedisCheck): void {
    if (memory === undefined) return;
    if (readiness === 'oom') this.outOfMemory(memory);
    else if (readiness === 'ok') this.withinMemory();
  }

  private outOfMemory({ usedBytes, maxBytes }: RedisMemory): void {
    const line = this.lines.occurred();
    if (!line) return;
    this.deps.logger.warn(
      { usedBytes, maxBytes, outOfMemoryForMs: line.forMs, checksSinceLastLine: line.sinceLastLine },
      'Redis is past its maxmemory and refuses every write (OOM): no question can be asked or answered until memory is freed or maxmemory raised; /readyz shows "redis":"oom". Logged again at most every 5 min while it lasts',
    );
  }

  private withinMemory(): void {
    const end = this.lines.ended();
    if (!end) return;
    this.deps.logger.info(
      { outOfMemoryForMs: end.forMs, checks: end.count },
      'Redis is below its maxmemory again and takes writes',
    );
  }
}
