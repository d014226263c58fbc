import { MemoryRoundStore, MemoryRounds } from '../../src/rounds/index.js';
import { roundStoreContract } from './round-store.contract.js';

roundStoreContract('MemoryRoundStore', (replicas) => {
  const shared = new MemoryRounds();
  return Promise.resolve(Array.from({ length: replicas }, () => new MemoryRoundStore(shared)));
});
