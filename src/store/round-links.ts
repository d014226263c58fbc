// The latest question of each 2026 URL request (src/relay/round-links.ts) in Redis: one string per link, the
// question's id, expiring with the question's record (its timeout plus the retention), so any replica finds
// the card a link's next round takes over, and the one where the call ends settles it.
import { commandError, type Keys, type RedisClient } from '../redis/index.js';
import type { RoundLink, RoundLinkStore } from '../relay/round-links.js';

export class RedisRoundLinks implements RoundLinkStore {
  constructor(
    private readonly cmd: RedisClient,
    private readonly keys: Pick<Keys, 'roundLink'>,
    /** How long an ended record is kept, in seconds (the store's retention). */
    private readonly retentionSec: number,
  ) {}

  async note(link: RoundLink, questionId: string, timeoutMs: number): Promise<void> {
    const ttlMs = timeoutMs + this.retentionSec * 1000;
    try {
      await this.cmd.set(this.keyOf(link), questionId, 'PX', ttlMs);
    } catch (err) {
      throw commandError('noteRoundLink', err);
    }
  }

  async latest(link: RoundLink): Promise<string | undefined> {
    try {
      return (await this.cmd.get(this.keyOf(link))) ?? undefined;
    } catch (err) {
      throw commandError('latestOfRoundLink', err);
    }
  }

  async settle(link: RoundLink): Promise<string | undefined> {
    try {
      return (await this.cmd.getdel(this.keyOf(link))) ?? undefined;
    } catch (err) {
      throw commandError('settleRoundLink', err);
    }
  }

  private keyOf(link: RoundLink): string {
    return this.keys.roundLink(link.server, link.elicitationId);
  }
}
