import { StoreError } from '../redis/index.js';

export { StoreError, type StoreErrorCode } from '../redis/index.js';

/**
 * A timeout job's finish refused because the question's deadline (Redis TIME) is still `retryAfterMs` ahead:
 * the worker's clock runs ahead of Redis's, so BullMQ fired the job early. The job is put back for that long.
 */
export class NotDueError extends StoreError {
  override name = 'NotDueError';
  constructor(
    readonly id: string,
    readonly retryAfterMs: number,
  ) {
    super('not_due', `Question ${id} is not due for another ${retryAfterMs} ms on the Redis clock`);
  }
}

/**
 * A create refused by the per-server rate limit (`max` new questions per window); `retryAfterMs` is when
 * the current window ends. The message reaches the server's author, so it names the config key to raise.
 */
export class RateLimitedError extends StoreError {
  override name = 'RateLimitedError';
  constructor(
    readonly server: string,
    readonly retryAfterMs: number,
    readonly max: number,
  ) {
    super(
      'rate_limited',
      `Server "${server}" asked too many questions (ratePerMinute ${max}); retry in ${retryAfterMs} ms, ` +
        `or raise mcpServers.${server}.elicitation.ratePerMinute`,
    );
  }
}
