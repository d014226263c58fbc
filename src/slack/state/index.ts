export type {
  AnswerHistory,
  AnswerRecord,
  Claims,
  DepartedInstallations,
  DepartureDelete,
  EventDeliveryClaims,
  HashCondition,
  HomeHashes,
  HomeOwner,
  ModalRecords,
  OpenModal,
  RefreshedInstallations,
  SlackStatePorts,
} from './ports.js';
export { HISTORY_MAX } from './history.js';
export { COMMAND_CLAIM_TTL_SEC, SlackState, type SlackStateOptions } from './slack-state.js';
export { EventDeliveries } from './deliveries.js';
export { RedisInstallationStore } from './installations.js';
