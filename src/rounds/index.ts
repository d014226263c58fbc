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
export { ROUND_LEASE_MS, roundKeeper, type KeeperOptions } from './keeper.js';
export { TAKE_OVER_EVERY_MS, startTakeOver, type ResumedCall, type TakeOverOptions } from './take-over.js';
export { roundRecorder, type EndedRoundQuestion, type RecorderOptions } from './recorder.js';
