// Deletes every key a test wrote under its prefix (SCAN + UNLINK, never FLUSH*), so a run leaves Redis as it found it.
import { Redis } from 'ioredis';
import { redisUrl } from '../setup/context.js';

export async function deleteUnder(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl());
  try {
    // Glob-escape the prefix: BullMQ's keys sit under `${prefix}:{bull}`, and braces are literal here.
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*`;
    for await (const batch of redis.scanStream({ match: pattern, count: 500 })) {
      const found = batch as string[];
      if (found.length > 0) await redis.unlink(...found);
    }
  } finally {
    await redis.quit();
  }
}
