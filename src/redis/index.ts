// Redis for every part of the bot: the one connection factory, the key layout and the persistence errors.
// Nothing outside this folder imports ioredis.
export {
  COMMAND_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  RedisConnections,
  checkEvictionPolicy,
  commandError,
  defaultLogger,
  type StoreLogger,
} from './connection.js';
export {
  QUIT_WITHIN_MS,
  closeQueueOwner,
  closeQueueOwners,
  endClient,
  type EndableClient,
  type QueueOwner,
} from './ending.js';
export { QueueWakes, WAKE_AFTER_MS, markerWake, type QueueWakesOptions } from './queue-wakes.js';
export { describeSetting, replyCode, serving, type RedisClient, type RedisSetting } from './topology.js';
export { HotScript } from './hot-script.js';
export { memoryOf, outOfMemory, parseMemoryInfo, type RedisMemory } from './memory.js';
export { checkPermissions } from './permissions.js';
export { DEAD_CONSUMERS_PER_PASS, removeDeadConsumers, type DeadConsumers } from './dead-consumers.js';
export { StoreError, redactUrl, type StoreErrorCode } from './errors.js';
export { OUTBOX_QUEUE, REMINDER_QUEUE, TIMEOUT_QUEUE, WEBHOOK_QUEUE, keys, type Keys } from './layout.js';
