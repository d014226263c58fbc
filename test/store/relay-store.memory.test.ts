import { afterEach } from 'vitest';
import { MemoryBackend, MemoryRelayStore } from '../../src/store/index.js';
import { relayStoreContract } from './relay-store.contract.js';

const opened: MemoryRelayStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

relayStoreContract('MemoryRelayStore', (holderIds) => {
  const backend = new MemoryBackend();
  const stores = holderIds.map((holderId) => new MemoryRelayStore(backend, holderId));
  opened.push(...stores);
  return Promise.resolve(stores);
});
