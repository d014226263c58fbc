// Per-test Redis isolation: a fresh prefix under the run's prefix, so tests never share keys or queues.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export const redisUrl = (): string => inject('redisUrl');

/** A key prefix unique to this call, under the run's prefix (e.g. `test-1a2b3c4d:5e6f`). */
export const uniquePrefix = (): string => `${inject('redisPrefix')}:${randomBytes(3).toString('hex')}`;
