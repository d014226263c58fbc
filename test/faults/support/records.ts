// The bot's own question records read back into a History: when a question was created and its deadline
// (both Redis TIME, as the store wrote them) and how it ended, for system-level fault runs where the bot, not
// a store replica, created the questions.
import { Redis } from 'ioredis';
import { keys } from '../../../src/redis/index.js';
import { isEndReason, type Outcome, type Question } from '../../../src/relay/types.js';
import { parseQuestion } from '../../../src/store/record.js';
import { readRecords } from '../../../src/store/schemas.js';
import { withScripts, type StoreScripts } from '../../../src/store/scripts.js';
import type { History } from './history.js';

export class Records {
  private readonly redis: Redis & StoreScripts;
  private readonly k: ReturnType<typeof keys>;

  constructor(redisUrl: string, prefix: string) {
    this.redis = withScripts(new Redis(redisUrl, { lazyConnect: true })) as Redis & StoreScripts;
    this.k = keys(prefix);
  }

  /** The stored question `id`, read as the store reads it (its shared schema put back); throws when there is none. */
  async question(id: string): Promise<Question> {
    const [record = {}] = await readRecords(this.redis, [this.k.question(id)], this.k.schema(''));
    const q = parseQuestion(record);
    if (!q) throw new Error(`no record of question ${id}`);
    return q;
  }

  /** When question `id` ended (Redis TIME, epoch ms), or undefined while it has not. */
  async endedAt(id: string): Promise<number | undefined> {
    const endedAt = await this.redis.hget(this.k.question(id), 'endedAt');
    return endedAt === null ? undefined : Number(endedAt);
  }

  /** The ids of every question stored under the run's prefix, finished or not. */
  async ids(): Promise<string[]> {
    const pattern = this.k.question('*');
    const ids: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      ids.push(...found.map((key) => key.slice(pattern.length - 1)));
    } while (cursor !== '0');
    return ids;
  }

  /** Records each question as created, then its stored end (endedAt, outcome, reason) into `history`. */
  async into(history: History, ids: readonly string[]): Promise<void> {
    for (const id of ids) history.created(await this.question(id));
    for (const id of ids) {
      const [endedAt, outcome, reason] = await this.redis.hmget(
        this.k.question(id),
        'endedAt',
        'outcome',
        'reason',
      );
      if (!endedAt || !outcome) continue;
      const stored = JSON.parse(outcome) as Outcome & { contentDropped?: boolean };
      history.ended(id, {
        endedAt: Number(endedAt),
        outcome: stored,
        contentDropped: stored.contentDropped,
        ...(reason && isEndReason(reason) ? { reason } : {}),
      });
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
