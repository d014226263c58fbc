// The holder's inbox: a blocking XREAD loop on its own connection. The stream keeps entries while the
// connection is down (pub/sub would drop them). Each entry carries the ended record; a batch is handed over,
// then acknowledged in one script (accepted content dropped, unless record.ts keepsContent; entries deleted).
// Whatever is still in the stream at start (a previous process with this holder id) is delivered first.
//
// A batch's acknowledgement and the next read go out together (pipelined on the inbox's one connection, which
// Redis runs in order): the read, from the stream's beginning, sees the stream as the acknowledgement left it.
// The loop then waits one round trip per batch, not two: under load every round trip waits behind the other
// clients' scripts, and the holder's read loop is what paces the ends it hands over (issue #19 goal 3).
//
// Every entry handed over is deleted, so whatever the stream holds is still to be handed over: after a batch
// is acknowledged the next read starts from the stream's beginning, not after the last id read. Stream ids come
// from the master's clock, and after a failover to a replica that missed the last writes and whose clock is
// behind, new entries get ids below the ones read before: a cursor would skip them for good (an answer never
// handed to its waiting call). An acknowledgement that failed leaves its entries in the stream: the loop then
// reads after them (it does not spin on them), and when it reads from the start again (after a batch acknowledged,
// or a quiet read) they are deleted with the next batch, not handed over a second time (this process remembers
// them; a restart hands them over again).
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../redis/index.js';
import type { StoreScripts } from './scripts.js';
import type { Question } from '../relay/types.js';
import { endClient, type StoreLogger } from '../redis/index.js';
import { RECORD_JSON_FIELD } from './finish-script.js';
import { keepsContent, pairs, parseQuestion, recordFromJson } from './record.js';
import { readRecords } from './schemas.js';

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
  redis: RedisClient & Pick<StoreScripts, 'inboxAck' | 'questionRead'>;
  streamKey: string;
  questionKey(id: string): string;
  /** The shared schemas' key prefix (store/schemas.ts), for entries that only name their question. */
  schemaPrefix: string;
  logger: StoreLogger;
}

/**
 * An entry's record: its JSON ('r', FINISH_LUA); else its fields, which are the record itself or, for entries
 * written before either, only its id. An entry with only an id, or whose JSON is unreadable, gets its record
 * read from the question's hash instead (records()), so one bad entry cannot stall the inbox.
 */
function entryRecord(fields: string[]): Record<string, string> {
  const entry = pairs(fields);
  const json = entry[RECORD_JSON_FIELD];
  if (json === undefined) return entry;
  try {
    return recordFromJson(json);
  } catch {
    return entry.id === undefined ? {} : { id: entry.id };
  }
}

export class Inbox {
  private lastId = '0';
  /** The last batch's acknowledgement, sent and not yet answered: true when the entries were deleted. */
  private acking: Promise<boolean> | undefined;
  /**
   * The entries that acknowledgement deletes, with their accepted questions' ids: a read that still finds one (it
   * reached Redis first after all, e.g. re-sent by a Cluster redirect) takes it again without handing it over.
   */
  private acked = new Map<string, string | undefined>();
  /** Entries handed over whose deletion failed, each with its accepted question's id (content to drop). */
  private readonly unacked = new Map<string, string | undefined>();
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

  /**
   * One XREAD (sent right behind the last batch's acknowledgement), then the whole batch: handed over in order,
   * then acknowledged in one script (accepted answers' content dropped, entries deleted), not waited for. A failed
   * read of a record throws before lastId moves, so the batch is read again on the next pass.
   */
  private async readOnce(): Promise<void> {
    const { redis, streamKey } = this.deps;
    const read = redis.xread('COUNT', BATCH, 'BLOCK', INBOX_BLOCK_MS, 'STREAMS', streamKey, this.lastId);
    // Settled before the read's entries are looked at: an entry whose deletion failed is then in `unacked`.
    const lastAcked = (await this.acking) ?? true;
    this.acking = undefined;
    const entries = ((await this.guard(read)) ?? []).flatMap(([, batch]) => batch);
    if (entries.length === 0) {
      // A quiet read (INBOX_BLOCK_MS with nothing new): entries whose deletion failed are read again from the start
      // and deleted with the next acknowledgement, not left until later ends carry them (at most one try per quiet
      // read, so Redis refusing the acknowledgements is not spun on).
      if (this.unacked.size > 0) this.lastId = '0';
      return;
    }
    const taken = this.handOverAll(entries, await this.records(entries));
    this.acked = taken;
    this.acking = this.ack(
      [...taken.keys()],
      [...taken.values()].filter((id) => id !== undefined),
    ).then((acked) => {
      for (const [entryId, accepted] of taken) {
        if (acked) this.unacked.delete(entryId);
        else this.unacked.set(entryId, accepted);
      }
      return acked;
    });
    // The next read starts from the beginning, as the acknowledgement in flight will have left the stream. After
    // a failed one it reads after this batch instead: its entries come back at once, and reading them again and
    // again while the acknowledgements fail would spin.
    if (lastAcked) this.lastId = '0';
  }

  /** Hands the batch's new entries over in order; each entry id taken, with its question's id when accepted. */
  private handOverAll(
    entries: [string, string[]][],
    records: Record<string, string>[],
  ): Map<string, string | undefined> {
    const taken = new Map<string, string | undefined>();
    for (const [i, [entryId]] of entries.entries()) {
      if (this.stopped) break;
      this.lastId = entryId;
      const handed = this.unacked.has(entryId) ? this.unacked : this.acked;
      if (handed.has(entryId)) {
        taken.set(entryId, handed.get(entryId));
        continue;
      }
      const question = this.readRecord(records[i] ?? {}, entryId);
      const drop = question?.outcome?.action === 'accept' && !keepsContent(question);
      taken.set(entryId, drop ? question.id : undefined);
      if (question !== undefined) this.handOver(question);
    }
    return taken;
  }

  /**
   * Each entry's record: the entry itself since the finish script writes the record into it; an entry that only
   * names its question (written before that) is read from the record, all of them in one script.
   */
  private async records(entries: [string, string[]][]): Promise<Record<string, string>[]> {
    const { redis, schemaPrefix } = this.deps;
    const records = entries.map(([, fields]) => entryRecord(fields));
    const missing = records.flatMap((r, i) => (r.state === undefined && r.id !== undefined ? [i] : []));
    if (missing.length === 0) return records;
    const keys = missing.map((i) => this.deps.questionKey(records[i]?.id ?? ''));
    const read = await this.guard(readRecords(redis, keys, schemaPrefix));
    read.forEach((record, j) => (records[missing[j] ?? 0] = record));
    return records;
  }

  private readRecord(hash: Record<string, string>, entryId: string): Question | undefined {
    const { logger } = this.deps;
    try {
      const question = parseQuestion(hash);
      if (question === undefined)
        logger.warn({ id: hash.id, entryId }, 'inbox: finished question not found; skipped');
      return question;
    } catch (err) {
      logger.warn({ err, id: hash.id }, 'inbox: unreadable question record; skipped');
      return undefined;
    }
  }

  /**
   * Whether the batch is deleted. The answers are in hand; a failed ack only means entries are re-delivered
   * after a restart, content expires. One cut short by stop() is no failure to report: its script was sent,
   * and Redis runs it whatever the client.
   */
  private async ack(entryIds: string[], acceptedIds: string[]): Promise<boolean> {
    if (entryIds.length === 0) return true;
    const { redis, streamKey, logger } = this.deps;
    const keys = [streamKey, ...acceptedIds.map((id) => this.deps.questionKey(id))];
    return this.guard(redis.inboxAck(keys.length, ...keys, ...entryIds)).then(
      () => true,
      (err: unknown) => {
        if (!this.stopped) {
          logger.warn(
            { err, entries: entryIds.length },
            'inbox: ack failed; the entries will be re-delivered after a restart',
          );
        }
        return false;
      },
    );
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

  private handOver(question: Question): void {
    try {
      this.onOutcome(question);
    } catch (err) {
      this.deps.logger.warn({ err, id: question.id }, 'inbox: onOutcome threw');
    }
  }
}
