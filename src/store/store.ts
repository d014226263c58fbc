// The question store: pending questions in Redis, their timeouts as BullMQ delayed jobs, one atomic
// transition that ends them, and each holder's inbox of finished questions.
import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { EndReason, FinishResult, NewQuestion, Outcome, Question } from '../relay/types.js';
import {
  checkEvictionPolicy,
  commandError,
  connectOrFail,
  createClient,
  defaultLogger,
  endClient,
  type StoreLogger,
} from './connect.js';
import { Inbox } from './inbox.js';
import { TIMEOUT_QUEUE, keys, type Keys } from './keys.js';
import { pairs, parseQuestion, stateFor, toHash } from './record.js';
import { withScripts, type StoreScripts } from './scripts.js';

/** Lock on an active timeout job, in ms; a crashed worker's job is stalled once this lapses. */
export const TIMEOUT_LOCK_DURATION_MS = 10_000;
/** How often workers look for stalled timeout jobs, in ms. */
export const TIMEOUT_STALLED_INTERVAL_MS = 5_000;
/** Upper bound, in ms, for a timeout job held by a crashed worker to run again on a live one. */
export const TIMEOUT_RECOVERY_BOUND_MS = TIMEOUT_LOCK_DURATION_MS + TIMEOUT_STALLED_INTERVAL_MS;
/** Stalls tolerated before BullMQ fails the job (its default 1 would drop a timeout after two crashes). */
const MAX_STALLED_COUNT = 5;
/** Timeout jobs run concurrently per worker; the handler is one short Redis script. */
const TIMEOUT_CONCURRENCY = 20;
/** Longest wait for one Redis command from create/get/finish/attachCard, in ms. */
export const COMMAND_TIMEOUT_MS = 5_000;
/** How long close() lets running timeout handlers finish, in ms, before it drops the worker's connections. */
export const CLOSE_GRACE_MS = 5_000;
/** Approximate cap on an inbox stream, so a holder that never reads cannot grow it without bound. */
const INBOX_MAX_LEN = 10_000;

export interface StoreOptions {
  /** REDIS_URL, e.g. `redis://127.0.0.1:6379`. */
  url: string;
  /** REDIS_PREFIX; every key and BullMQ queue lives under `${prefix}:`. */
  prefix: string;
  /** This replica's id; outcomes of questions it created are delivered to its inbox. */
  holderId: string;
  /** How long finished records are kept, in seconds. Default 86400 (one day). */
  retentionSec?: number;
  /** Refuse to open (StoreError 'not_noeviction') instead of warning when maxmemory-policy is wrong. Default false. */
  requireNoeviction?: boolean;
  logger?: StoreLogger;
}

interface Collaborators {
  opts: StoreOptions;
  keys: Keys;
  logger: StoreLogger;
  /** Commands and the BullMQ Queue. No offline queue: with Redis down, calls fail at once. */
  cmd: Redis & StoreScripts;
  queue: Queue;
}

type FinishReply = ['missing'] | ['won' | 'lost', string[]];

export class QuestionStore {
  private readonly retentionSec: number;
  private worker: Worker | undefined;
  /** Timeout handlers in progress, so close() can let them finish without waiting on a Redis that may be gone. */
  private readonly running = new Set<Promise<void>>();
  private workerBase: Redis | undefined;
  private inbox: Inbox | undefined;
  private closed = false;

  private constructor(private readonly c: Collaborators) {
    this.retentionSec = c.opts.retentionSec ?? 86_400;
  }

  static async open(opts: StoreOptions): Promise<QuestionStore> {
    const k = keys(opts.prefix);
    const logger = opts.logger ?? defaultLogger;
    const cmd = withScripts(
      createClient(opts.url, k.connectionName('cmd', opts.holderId), logger, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        // Bounds a command on a connection that died without a FIN (partition), which ioredis cannot see.
        commandTimeout: COMMAND_TIMEOUT_MS,
      }),
    );
    await connectOrFail(cmd, opts.url);
    try {
      await checkEvictionPolicy(cmd, logger, opts.requireNoeviction ?? false);
      const queue = new Queue(TIMEOUT_QUEUE, { connection: cmd, prefix: k.bullPrefix });
      queue.on('error', (err) => logger.warn({ err }, 'timeout queue error'));
      await queue.waitUntilReady();
      return new QuestionStore({ opts, keys: k, logger, cmd, queue });
    } catch (err) {
      await endClient(cmd, false);
      throw commandError('start-up', err);
    }
  }

  async create(q: NewQuestion): Promise<Question> {
    const { cmd, keys: k } = this.c;
    try {
      const now = await this.redisNow();
      const question: Question = {
        ...q,
        id: newId(),
        state: 'pending',
        holder: this.c.opts.holderId,
        createdAt: now,
        deadline: now + q.timeoutMs,
      };
      const key = k.question(question.id);
      // Unanswered records still expire: deadline plus retention, in case every timer was lost.
      const replies = await cmd
        .multi()
        .hset(key, toHash(question))
        .pexpire(key, q.timeoutMs + this.retentionSec * 1000)
        .exec();
      const failed = replies?.find(([err]) => err !== null);
      if (failed?.[0]) throw failed[0];
      await this.addTimeout(question);
      return question;
    } catch (err) {
      throw commandError('create', err);
    }
  }

  async get(id: string): Promise<Question | undefined> {
    let hash: Record<string, string>;
    try {
      hash = await this.c.cmd.hgetall(this.c.keys.question(id));
    } catch (err) {
      throw commandError('get', err);
    }
    return parseQuestion(hash);
  }

  /** Records the posted Slack card; a no-op when the question no longer exists. */
  async attachCard(id: string, card: { channel: string; ts: string }): Promise<void> {
    try {
      await this.c.cmd.questionAttachCard(this.c.keys.question(id), card.channel, card.ts);
    } catch (err) {
      throw commandError('attachCard', err);
    }
  }

  /** Ends a pending question exactly once; every other attempt learns the state it is already in. */
  async finish(id: string, outcome: Outcome, reason: EndReason): Promise<FinishResult> {
    const { cmd, keys: k } = this.c;
    let reply: FinishReply;
    try {
      // The holder never changes after creation; the script needs its inbox key declared up front.
      const holder = await cmd.hget(k.question(id), 'holder');
      if (holder === null) return { won: false, state: 'missing' };
      const args = [stateFor(outcome), JSON.stringify(outcome), reason, this.retentionSec, INBOX_MAX_LEN, id];
      reply = (await cmd.questionFinish(k.question(id), k.inbox(holder), ...args)) as FinishReply;
    } catch (err) {
      throw commandError('finish', err);
    }
    if (reply[0] === 'missing') return { won: false, state: 'missing' };
    const question = parseQuestion(pairs(reply[1]));
    if (question === undefined) return { won: false, state: 'missing' };
    if (reply[0] === 'lost') return { won: false, state: question.state, question };
    await this.removeTimeout(id);
    return { won: true, question };
  }

  async startTimeouts(onDue: (questionId: string) => Promise<void>): Promise<void> {
    const { opts, keys: k, logger, cmd } = this.c;
    // Workers block (BZPOPMIN) and must wait out outages, hence their own connections and no retry limit.
    this.workerBase = cmd.duplicate({
      connectionName: k.connectionName('worker', opts.holderId),
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      lazyConnect: true,
    });
    // Never connects itself: BullMQ duplicates it, and those copies report their errors through the worker.
    this.workerBase.on('error', () => undefined);
    const worker = new Worker(TIMEOUT_QUEUE, this.tracked(onDue), {
      connection: this.workerBase,
      prefix: k.bullPrefix,
      name: k.connectionName('timeouts', opts.holderId),
      concurrency: TIMEOUT_CONCURRENCY,
      lockDuration: TIMEOUT_LOCK_DURATION_MS,
      stalledInterval: TIMEOUT_STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
    });
    this.worker = worker;
    worker.on('error', (err) => logger.warn({ err }, 'timeout worker error'));
    worker.on('failed', (job, err) => logger.warn({ err, id: job?.id }, 'timeout job failed'));
    await worker.waitUntilReady();
  }

  async startInbox(onOutcome: (question: Question) => void): Promise<void> {
    const { opts, keys: k, logger } = this.c;
    const redis = createClient(opts.url, k.connectionName('inbox', opts.holderId), logger, {
      maxRetriesPerRequest: null,
    });
    await connectOrFail(redis, opts.url);
    const deps = {
      redis,
      streamKey: k.inbox(opts.holderId),
      questionKey: (id: string) => k.question(id),
      logger,
    };
    this.inbox = new Inbox(deps, onOutcome);
    this.inbox.start();
  }

  /** Stops the worker (letting running timeout jobs finish), the inbox loop and every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { cmd, queue, logger } = this.c;
    if (this.worker) {
      await settleWithin([...this.running], CLOSE_GRACE_MS);
      // Forced: a graceful BullMQ close queues QUIT behind a blocking read and hangs while Redis is down. A job
      // cut short here is recovered after the lock lapses, and its finish simply loses if it had already won.
      await this.worker
        .close(true)
        .catch((err: unknown) => logger.warn({ err }, 'closing the timeout worker'));
    }
    if (this.workerBase) await endClient(this.workerBase, false);
    await this.inbox?.stop();
    await queue.close().catch((err: unknown) => logger.warn({ err }, 'closing the timeout queue'));
    await endClient(cmd, true);
  }

  /** The job processor: runs onDue for the job's question and keeps it in `running` meanwhile. */
  private tracked(onDue: (questionId: string) => Promise<void>) {
    return async (job: Job<{ id?: string }>): Promise<void> => {
      const run = onDue(job.data.id ?? job.id ?? '');
      this.running.add(run);
      try {
        await run;
      } finally {
        this.running.delete(run);
      }
    };
  }

  /** Redis TIME in epoch ms, so every replica shares one clock for deadlines. */
  private async redisNow(): Promise<number> {
    const [sec, micro] = await this.c.cmd.time();
    return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
  }

  /** Without its timer a question could stay pending forever, so a failed add undoes the record. */
  private async addTimeout(question: Question): Promise<void> {
    try {
      await this.c.queue.add('timeout', { id: question.id }, timeoutJobOptions(question, this.retentionSec));
    } catch (err) {
      await this.c.cmd.del(this.c.keys.question(question.id)).catch(() => undefined);
      throw err;
    }
  }

  /** Cleanup only: a surviving job finds the question finished and its finish loses. */
  private async removeTimeout(id: string): Promise<void> {
    try {
      await this.c.queue.remove(id);
    } catch (err) {
      this.c.logger.warn({ err, id }, 'could not remove the timeout job; it will find the question finished');
    }
  }
}

/** Waits for the promises to settle, or for `ms`, whichever comes first. */
async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), grace]);
  clearTimeout(timer);
}

function timeoutJobOptions(q: Question, retentionSec: number) {
  return {
    jobId: q.id,
    delay: q.deadline - q.createdAt,
    // The handler is idempotent (finish is a CAS), so retrying a failed run is always safe.
    attempts: 5,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: { age: retentionSec },
  };
}

/** 120 random bits, url-safe. BullMQ refuses job ids that are all digits, so those (~never) are redrawn. */
function newId(): string {
  const id = randomBytes(15).toString('base64url');
  return /^\d+$/.test(id) ? newId() : id;
}
