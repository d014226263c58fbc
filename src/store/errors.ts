import { StoreError } from '../redis/index.js';

export { StoreError, type StoreErrorCode } from '../redis/index.js';

/** A create refused by the per-server rate limit; `retryAfterMs` is when the current window ends. */
export class RateLimitedError extends StoreError {
  override name = 'RateLimitedError';
  constructor(
    readonly server: string,
    readonly retryAfterMs: number,
  ) {
    super('rate_limited', `Server "${server}" asked too many questions; retry in ${retryAfterMs} ms`);
  }
}
