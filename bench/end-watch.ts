// When each question ended, as the store recorded it: a blocking XREAD on the deployment's ended stream (the
// finish script XADDs `{id, state}` there in the same step that ends the question). The benchmarks time the
// work that hangs off an end (long-poll wake-ups, webhook deliveries) from this moment, so the request that
// caused the end (a DELETE, which also updates the card) is not counted. Seeing the entry costs one XADD →
// XREAD wake-up (the long-poll floor row), so times measured from here are short by about that much.
import { Redis } from 'ioredis';

/** performance.timeOrigin + performance.now(): ms, comparable across this machine's processes. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

export class EndWatch {
  private readonly seen = new Map<string, number>();
  private readonly waiting = new Map<string, (ms: number) => void>();
  private closed = false;

  private constructor(private readonly redis: Redis) {}

  /** Watches `${prefix}:{q}:ended` from its current end. */
  static async open(url: string, prefix: string): Promise<EndWatch> {
    const redis = new Redis(url);
    const key = `${prefix}:{q}:ended`;
    const last = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
    const watch = new EndWatch(redis);
    void watch.loop(key, last[0]?.[0] ?? '0-0');
    return watch;
  }

  private async loop(key: string, from: string): Promise<void> {
    let lastId = from;
    while (!this.closed) {
      const reply = await this.redis.xread('BLOCK', 1_000, 'STREAMS', key, lastId).catch(() => null);
      const at = wallMs();
      for (const [entryId, fields] of reply?.[0]?.[1] ?? []) {
        lastId = entryId;
        const id = fields[fields.indexOf('id') + 1] ?? '';
        this.seen.set(id, at);
        this.waiting.get(id)?.(at);
      }
    }
  }

  /** When question `id` was seen ending (wallMs). */
  ended(id: string): Promise<number> {
    const at = this.seen.get(id);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  close(): void {
    this.closed = true;
    this.redis.disconnect();
  }
}
