// Deletes every key a test wrote under its prefix (SCAN + UNLINK, never FLUSH*), so a run leaves Redis as it found it.
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl } from '../setup/context.js';

export const deleteUnder = (prefix: string): Promise<void> => deleteKeysUnder(redisUrl(), prefix);
