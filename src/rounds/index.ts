// Durable 2026-07-28 input rounds: the round store port and its Redis and in-process implementations.
export { MemoryRoundStore, MemoryRounds } from './memory-store.js';
export { RedisRoundStore, type RedisRoundStoreOptions } from './redis-store.js';
export {
  ROUND_GRACE_MS,
  type AnswerRecorded,
  type Claim,
  type NewRound,
  type NextRound,
  type Round,
  type RoundRequest,
  type RoundStatus,
  type RoundStore,
} from './types.js';
