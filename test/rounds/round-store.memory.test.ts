import { MemoryRoundStore, MemoryRounds } from '../../src/rounds/index.js';
import { roundStoreContract } from './round-store.contract.js';

roundStoreContract('MemoryRoundStore', (replicas) => {
  const shared = new MemoryRounds();
  const stores = Array.from({ length: replicas }, () => new MemoryRoundStore(shared));
  const live = (holder: string, alive: boolean): Promise<void> => {
    if (alive) shared.alive.add(holder);
    else shared.alive.delete(holder);
    return Promise.resolve();
  };
  return Promise.resolve({ stores, live });
});
