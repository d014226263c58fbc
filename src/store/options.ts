// The store's options: where Redis is and the store's own settings.
import type { RedisSetting, StoreLogger } from '../redis/index.js';
import type { Clock } from '../clock.js';
import type { TimerSettings } from './timers.js';

/** Where Redis is (RedisSetting: REDIS_URL, or a Cluster or Sentinel group) and the store's own settings. */
export type StoreOptions = RedisSetting & {
  /** REDIS_PREFIX; every key and BullMQ queue lives under `${prefix}:`. */
  prefix: string;
  /** This replica's id; outcomes of questions it created are delivered to its inbox. */
  holderId: string;
  /** How long finished records are kept, in seconds. Default 86400 (one day). */
  retentionSec?: number;
  /**
   * Lock and stalled-check interval of the timer workers, ms. A timer job held by a crashed worker runs again on
   * a live one within lockDurationMs + stalledIntervalMs (defaults 10000 + 5000). Also how often and how late a
   * deadline slot that lost its job is given a new one (store/slot-rescue.ts), and when a timeout worker that
   * takes no job is restarted (store/timeout-watch.ts).
   */
  timers?: TimerSettings;
  /**
   * Time and timers of the deferred slot drops (store/slot-drops.ts) and of the retried moves of slot jobs
   * (store/slots.ts). Default the system clock.
   */
  clock?: Pick<Clock, 'now' | 'schedule'>;
  /** Refuse to open (StoreError 'not_noeviction') instead of warning when maxmemory-policy is wrong. Default false. */
  requireNoeviction?: boolean;
  logger?: StoreLogger;
};
