import { uniquePrefix } from '../setup/context.js';
import { openStore } from './helpers.js';
import { relayStoreContract } from './relay-store.contract.js';

relayStoreContract('Redis QuestionStore', (holderIds) => {
  const prefix = uniquePrefix();
  return Promise.all(holderIds.map((holderId) => openStore(prefix, holderId)));
});
