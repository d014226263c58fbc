export {
  CLOSE_GRACE_MS,
  QuestionStore,
  TIMEOUT_LOCK_DURATION_MS,
  TIMEOUT_RECOVERY_BOUND_MS,
  TIMEOUT_STALLED_INTERVAL_MS,
  TIMER_MAX_BLOCK_MS,
} from './store.js';
export type { StoreOptions } from './store.js';
export { NotDueError, RateLimitedError, StoreError, type StoreErrorCode } from './errors.js';
export { COMMAND_TIMEOUT_MS, CONNECT_TIMEOUT_MS, type StoreLogger } from '../redis/index.js';
export { INBOX_BLOCK_MS, INBOX_STALL_MS } from './inbox.js';
export {
  LEASE_RENEW_EVERY_MS,
  LEASE_TTL_MS,
  SWEEP_EVERY_MS,
  replicaTimings,
  type LeaseOptions,
  type ReplicaTimings,
  type SweepOptions,
} from './lease.js';
export { ENDED_MAX_LEN } from './transitions.js';
export { MemoryBackend, MemoryRelayStore, MemoryRoundLinks } from './memory.js';
export { RedisRoundLinks } from './round-links.js';
export type { StoredQuestion } from './record.js';
