// Events API deliveries already taken by some replica. Slack retries an event it got no 200 for within 3 s
// (X-Slack-Retry-Num 1..3: at once, after 1 min, after 5 min), possibly to another replica behind the load
// balancer; the first replica to claim the event_id processes it, every later delivery is acked and dropped.
//
// Keys: `event` in src/redis/layout.ts, "1" (SET NX EX) while the event counts as seen.
import { commandError, keys, type Keys, type RedisClient } from '../../redis/index.js';

/** How long an event_id counts as seen, in seconds: Slack's last retry comes about 5 minutes after the first. */
export const EVENT_SEEN_TTL_SEC = 3_600;

export class EventDeliveries {
  private readonly keys: Keys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = keys(prefix);
  }

  /** True for the first delivery of `eventId` across all replicas, false for every retry or duplicate. */
  async claim(eventId: string): Promise<boolean> {
    try {
      const key = this.keys.event(eventId);
      return (await this.redis.set(key, '1', 'EX', EVENT_SEEN_TTL_SEC, 'NX')) === 'OK';
    } catch (cause) {
      throw commandError('claiming an event delivery', cause);
    }
  }
}
