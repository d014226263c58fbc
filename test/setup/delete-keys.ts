// Deletes every key under a prefix (SCAN + UNLINK, never FLUSH*). No vitest import: the global setup uses it too.
import { Redis } from 'ioredis';

export async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
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
