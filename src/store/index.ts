export {
  CLOSE_GRACE_MS,
  COMMAND_TIMEOUT_MS,
  QuestionStore,
  TIMEOUT_LOCK_DURATION_MS,
  TIMEOUT_RECOVERY_BOUND_MS,
  TIMEOUT_STALLED_INTERVAL_MS,
} from './store.js';
export type { StoreOptions } from './store.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { CONNECT_TIMEOUT_MS, type StoreLogger } from './connect.js';
export { INBOX_BLOCK_MS, INBOX_STALL_MS } from './inbox.js';
