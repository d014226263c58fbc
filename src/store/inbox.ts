// The holder's inbox: a blocking XREAD loop on its own connection. The stream keeps entries while the
// connection is down (pub/sub would drop them), and the loop always reads after the last entry it handled,
// so a reconnect re-issues the same XREAD and nothing is lost or repeated within one process. Handled entries
// are deleted; whatever is still in the stream at start (a previous process with this holder id) is
// delivered first.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../redis/index.js';
import type { Question } from '../relay/types.js';
import { endClient, type StoreLogger } from '../redis/index.js';
import { parseQuestion } from './record.js';

/** XREAD BLOCK time in ms: how long one read waits for new entries before it is issued again. */
export const INBOX_BLOCK_MS = 2_000;
/**
 * An inbox command still unanswered this long (ms) on a 'ready' connection means the socket died silently (no
 * FIN, e.g. a network partition); the client is then reconnected and ioredis re-sends the command.
 */
export const INBOX_STALL_MS = INBOX_BLOCK_MS + 3_000;
/** Pause in ms after a failed read before the next one. */
export const INBOX_RETRY_MS = 250;
/** Entries read per XREAD. */
const BATCH = 100;

export interface InboxDeps {
  redis: RedisClient;
  streamKey: string;
  questionKey(id: string): string;
  /** Drops an accepted answer's content from the record, once read for delivery. */
  dropContent(id: string): Promise<unknown>;
  logger: StoreLogger;
}

export class Inbox {
  private lastId = '0';
  private stopped = false;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: InboxDeps,
    private readonly onOutcome: (question: Question) => void,
  ) {}

  /** Starts the loop on an already connected client. */
  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    // Dropping the socket rejects the blocked XREAD at once instead of waiting out INBOX_BLOCK_MS.
    await Promise.all([endClient(this.deps.redis, false), this.loop]);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.readOnce();
      } catch (err) {
        if (this.stopped) return;
        this.deps.logger.warn({ err, stream: this.deps.streamKey }, 'inbox read failed; retrying');
        await sleep(INBOX_RETRY_MS, undefined, { signal: this.abort.signal }).catch(() => undefined);
      }
    }
  }

  private async readOnce(): Promise<void> {
    const { redis, streamKey } = this.deps;
    const read = redis.xread('COUNT', BATCH, 'BLOCK', INBOX_BLOCK_MS, 'STREAMS', streamKey, this.lastId);
    const reply = await this.guard(read);
    for (const [, entries] of reply ?? []) {
      for (const [entryId, fields] of entries) {
        if (this.stopped) return;
        await this.deliver(entryId, fields);
      }
    }
  }

  private reconnectIfStalled(): void {
    const { redis, streamKey, logger } = this.deps;
    if (this.stopped || redis.status !== 'ready') return;
    logger.warn({ stream: streamKey, waitedMs: INBOX_STALL_MS }, 'inbox read stalled; reconnecting');
    redis.disconnect(true);
  }

  /**
   * Every inbox command runs under a stall watchdog, and stop() does not wait for it: while Redis is unreachable
   * a command waits in ioredis's offline queue, and disconnecting a reconnecting client never settles it.
   */
  private guard<T>(command: Promise<T>): Promise<T> {
    const signal = this.abort.signal;
    return new Promise<T>((resolve, reject) => {
      const watchdog = setTimeout(() => this.reconnectIfStalled(), INBOX_STALL_MS);
      const onAbort = () => reject(new Error('inbox stopped'));
      const settle = () => {
        clearTimeout(watchdog);
        signal.removeEventListener('abort', onAbort);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      command.then(
        (value) => {
          settle();
          resolve(value);
        },
        (err: unknown) => {
          settle();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** A failed HGETALL throws before lastId moves, so the entry is read again on the next pass. */
  private async deliver(entryId: string, fields: string[]): Promise<void> {
    const { redis, streamKey, logger } = this.deps;
    const at = fields.indexOf('id');
    const id = at % 2 === 0 ? fields[at + 1] : undefined;
    const hash = id === undefined ? {} : await this.guard(redis.hgetall(this.deps.questionKey(id)));
    let question: Question | undefined;
    try {
      question = parseQuestion(hash);
    } catch (err) {
      logger.warn({ err, id }, 'inbox: unreadable question record; skipped');
    }
    if (question === undefined) logger.warn({ id, entryId }, 'inbox: finished question not found; skipped');
    else {
      if (question.outcome?.action === 'accept') await this.dropContent(question.id);
      this.handOver(question);
    }
    this.lastId = entryId;
    await this.guard(redis.xdel(streamKey, entryId)).catch((err: unknown) => {
      logger.warn({ err, entryId }, 'inbox: XDEL failed; the entry will be re-delivered after a restart');
    });
  }

  /** The answer is in hand; a failure only means the content stays until the record expires. */
  private async dropContent(id: string): Promise<void> {
    await this.guard(Promise.resolve(this.deps.dropContent(id))).catch((err: unknown) => {
      this.deps.logger.warn(
        { err, id },
        'inbox: could not drop the answer content; it expires with the record',
      );
    });
  }

  private handOver(question: Question): void {
    try {
      this.onOutcome(question);
    } catch (err) {
      this.deps.logger.warn({ err, id: question.id }, 'inbox: onOutcome threw');
    }
  }
}
