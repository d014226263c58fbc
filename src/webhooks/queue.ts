// Webhook deliveries as BullMQ jobs: at least once, from any replica's worker, retried with capped exponential
// backoff until a 2xx or until the delivery is 24 h old, then given up (logged, and reported to onGaveUp for
// the audit). The job id is the delivery id, derived from the resource, so replicas that enqueue the same end
// twice make one job, and every attempt carries the same X-Elicit-Relay-Delivery. Each replica runs at most
// RECEIVER_CONCURRENCY attempts to one receiver at once, so a receiver that hangs never holds up the others'.
import { createHash } from 'node:crypto';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import {
  RedisConnections,
  WEBHOOK_QUEUE,
  closeQueueOwners,
  commandError,
  endClient,
  keys,
  type RedisClient,
  type RedisSetting,
  type StoreLogger,
} from '../redis/index.js';
import type { Clock } from '../clock.js';
import { WebhookError } from './errors.js';
import { attempt, isFinal, systemResolve, type Resolve } from './attempt.js';
import type { AllowList } from './hosts.js';
import { deliveryHeaders } from './signature.js';
import { retryAfterMs } from '../http/retry-after.js';
import { retryDelay, DEFAULT_RETRY, type RetrySettings } from './retry.js';

export type WebhookType = 'question.ended' | 'call.ended';

/** What came of one delivery attempt. */
export type AttemptOutcome = 'delivered' | 'retry' | 'gave_up';

/** One end to report: `body` is the resource as its GET returns it; `type` is added to it. */
export interface WebhookRequest {
  type: WebhookType;
  resourceId: string;
  url: string;
  body: Record<string, unknown>;
  /** The API client that owns the resource (named in the audit when the delivery gives up). */
  client: string;
}

/** A delivery that will not be retried any more. */
export interface GaveUp {
  deliveryId: string;
  type: WebhookType;
  resourceId: string;
  url: string;
  client: string;
  attempts: number;
  code: WebhookError['code'];
  reason: string;
}

/** Longest wait for one attempt (resolving, connecting, the receiver's status line), in ms: PRODUCT says 10 s. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts running at once per replica. */
const CONCURRENCY = 8;
/**
 * Attempts to one receiver (callback origin) running at once per replica. A receiver that hangs holds each of
 * its attempts for the whole ATTEMPT_TIMEOUT_MS (10 s): with no cap its deliveries took all CONCURRENCY slots and
 * every other client's waited behind them. 2, not 1, so a slow receiver still has one attempt going while
 * another waits on it; a hung one holds 2 of the 8 slots, leaving 6 to the others.
 */
export const RECEIVER_CONCURRENCY = 2;
/**
 * A job whose receiver has RECEIVER_CONCURRENCY attempts running here goes back to the delayed set for this long
 * plus up to as much again at random (ms), so a busy receiver's jobs come back spread out rather than all at once.
 * Not an attempt: BullMQ's attempt count and the retry backoff stay as they were.
 */
const BUSY_RECEIVER_DELAY_MS = 1_000;
/** How long a finished delivery's job (without its body) is kept, in s, so a repeated enqueue makes no new one. */
const KEEP_FINISHED_SEC = 86_400;
/** BullMQ's own attempt limit, never reached: giving up is decided by age (RetrySettings.giveUpAfterMs). */
const MAX_ATTEMPTS = 1_000_000;
/** How long close() lets running attempts finish, in ms. */
const CLOSE_GRACE_MS = 5_000;

export type WebhooksOptions = RedisSetting & {
  prefix: string;
  /** ELICIT_RELAY_WEBHOOK_SECRET: the HMAC key. */
  secret: string;
  /** ELICIT_RELAY_WEBHOOK_HOSTS, parsed. */
  allowed: AllowList;
  logger: StoreLogger & { error(obj: object, msg: string): void };
  /** Hears each attempt's outcome (metrics): delivered (2xx), retry (will be tried again) or gave_up. */
  onAttempt?: (type: WebhookType, outcome: AttemptOutcome) => void;
  /** Told once per delivery that gives up (the audit records it); its failure is logged, not retried. */
  onGaveUp?: (gaveUp: GaveUp) => Promise<void>;
  clock: Pick<Clock, 'now' | 'random'>;
  /** Default DEFAULT_RETRY (10 s doubling to 1 h, given up after 24 h). */
  retry?: RetrySettings;
  /** Default ATTEMPT_TIMEOUT_MS. */
  attemptTimeoutMs?: number;
  /** Default node:dns lookup. */
  resolve?: Resolve;
};

type Data = Omit<WebhookRequest, 'body'> & { deliveryId: string; body?: string };
type Result = { delivered: number } | { gaveUp: WebhookError['code'] };

/** Stable for one resource's end: the same on every replica and every attempt. */
export function deliveryId(type: WebhookType, resourceId: string): string {
  return `dlv_${createHash('sha256').update(`${type}\u0000${resourceId}`).digest('hex').slice(0, 32)}`;
}

export class Webhooks {
  private worker: Worker<Data, Result> | undefined;
  private closed = false;
  /** Attempts running on this replica, by receiver origin (absent at 0). */
  private readonly running = new Map<string, number>();

  private constructor(
    private readonly opts: WebhooksOptions,
    private readonly producer: RedisClient,
    private readonly base: RedisClient,
    private readonly queue: Queue<Data, Result>,
  ) {}

  static async open(opts: WebhooksOptions): Promise<Webhooks> {
    const k = keys(opts.prefix);
    const connections = new RedisConnections(opts, opts.logger);
    const producer = await connections.command(k.connectionName('webhooks', 'producer'));
    const base = connections.template(k.connectionName('webhooks', 'blocking'));
    const queue = new Queue<Data, Result>(WEBHOOK_QUEUE, { connection: producer, prefix: k.bullPrefix });
    queue.on('error', (err) => opts.logger.warn({ err }, 'webhook queue error'));
    const webhooks = new Webhooks(opts, producer, base, queue);
    try {
      await queue.waitUntilReady();
    } catch (err) {
      await webhooks.close();
      throw commandError('webhook queue start-up', err);
    }
    return webhooks;
  }

  /** Queues the delivery of one end; resolves with its delivery id once Redis has it. */
  async enqueue(request: WebhookRequest): Promise<string> {
    const id = deliveryId(request.type, request.resourceId);
    const body = JSON.stringify({ ...request.body, type: request.type });
    const { type, resourceId, url, client } = request;
    try {
      await this.queue.add(
        type,
        { deliveryId: id, type, resourceId, url, client, body },
        this.jobOptions(id),
      );
    } catch (err) {
      throw commandError('webhook enqueue', err);
    }
    return id;
  }

  /** Runs this replica's worker. Once per Webhooks. */
  async start(): Promise<void> {
    if (this.worker) return;
    const worker = new Worker<Data, Result>(WEBHOOK_QUEUE, (job, token) => this.process(job, token), {
      connection: this.base,
      prefix: keys(this.opts.prefix).bullPrefix,
      concurrency: CONCURRENCY,
      settings: {
        backoffStrategy: (attemptsMade, _type, err) =>
          this.nextDelay(attemptsMade, err, this.opts.clock.random()),
      },
    });
    this.worker = worker;
    worker.on('error', (err) => this.opts.logger.warn({ err }, 'webhook worker error'));
    await worker.waitUntilReady();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // While Redis is down, or once the grace ran out, each part's connections are dropped (closeQueueOwners).
    const parts = { 'webhook worker': this.worker, 'webhook queue': this.queue };
    await closeQueueOwners(parts, CLOSE_GRACE_MS, this.opts.logger);
    await endClient(this.base, false);
    await endClient(this.producer, true);
  }

  private jobOptions(id: string) {
    return {
      jobId: id,
      attempts: MAX_ATTEMPTS,
      backoff: { type: 'webhook' },
      removeOnComplete: { age: KEEP_FINISHED_SEC },
      removeOnFail: { age: KEEP_FINISHED_SEC },
    };
  }

  private async process(job: Job<Data, Result>, token: string | undefined): Promise<Result> {
    // A run after the delivery was settled (its worker died before completing the job) has nothing to send.
    if (job.data.body === undefined) return { delivered: 0 };
    const receiver = originOf(job.data.url);
    const running = this.running.get(receiver) ?? 0;
    if (running >= RECEIVER_CONCURRENCY) {
      // BullMQ dates delayed jobs by Date.now(); moveToDelayed leaves the attempt count as it is (skipAttempt).
      const delay = BUSY_RECEIVER_DELAY_MS * (1 + this.opts.clock.random());
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
    this.running.set(receiver, running + 1);
    try {
      return await this.deliver(job, job.data.body);
    } finally {
      const left = (this.running.get(receiver) ?? 1) - 1;
      if (left > 0) this.running.set(receiver, left);
      else this.running.delete(receiver);
    }
  }

  private async deliver(job: Job<Data, Result>, body: string): Promise<Result> {
    const { url, deliveryId: id } = job.data;
    const { secret, allowed, clock } = this.opts;
    const headers = deliveryHeaders(secret, { id, body }, clock.now());
    const settings = {
      allowed,
      resolve: this.opts.resolve ?? systemResolve,
      timeoutMs: this.opts.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
    };
    try {
      const status = await attempt(url, body, headers, settings);
      this.opts.onAttempt?.(job.data.type, 'delivered');
      await this.dropBody(job);
      return { delivered: status };
    } catch (err) {
      const error =
        err instanceof WebhookError ? err : new WebhookError('network', 'attempt failed', { cause: err });
      const givesUp = this.givesUp(job, error);
      this.opts.onAttempt?.(job.data.type, givesUp ? 'gave_up' : 'retry');
      if (!givesUp) throw error;
      await this.giveUp(job, error);
      return { gaveUp: error.code };
    }
  }

  /** Final errors give up at once; others once the next attempt would start past giveUpAfterMs. */
  private givesUp(job: Job<Data, Result>, error: WebhookError): boolean {
    if (isFinal(error)) return true;
    const retry = this.opts.retry ?? DEFAULT_RETRY;
    const next = this.nextDelay(job.attemptsMade + 1, error, 0);
    return this.opts.clock.now() + next - job.timestamp > retry.giveUpAfterMs;
  }

  /** The wait before the next attempt after `failures` failed ones, `error` the last: at least its Retry-After. */
  private nextDelay(failures: number, error: Error | undefined, random: number): number {
    const asked = error instanceof WebhookError ? retryAfterMs(error.retryAfter, this.opts.clock.now()) : 0;
    return retryDelay(this.opts.retry ?? DEFAULT_RETRY, failures, random, asked);
  }

  private async giveUp(job: Job<Data, Result>, error: WebhookError): Promise<void> {
    const { deliveryId: id, type, resourceId, url, client } = job.data;
    const gaveUp: GaveUp = {
      deliveryId: id,
      type,
      resourceId,
      url,
      client,
      attempts: job.attemptsMade + 1,
      code: error.code,
      reason: error.message,
    };
    // The log names the receiver's origin only: a callback URL often carries its secret in the path or query
    // (the audit and onGaveUp, read by the client that gave it, keep it whole).
    this.opts.logger.error({ webhook: { ...gaveUp, url: originOf(url) } }, 'webhook delivery gave up');
    await this.dropBody(job);
    await this.opts.onGaveUp?.(gaveUp).catch((err: unknown) => {
      this.opts.logger.error({ err, deliveryId: id }, 'webhook give-up not recorded');
    });
  }

  /** The body may carry an answer: once the delivery is settled only its id and outcome stay. */
  private async dropBody(job: Job<Data, Result>): Promise<void> {
    const { deliveryId: id, type, resourceId, url, client } = job.data;
    await job.updateData({ deliveryId: id, type, resourceId, url, client }).catch((err: unknown) => {
      this.opts.logger.warn({ err, id: job.id }, 'webhook: could not drop a delivered body from its job');
    });
  }
}

/** `url`'s scheme, host and port; a URL that does not parse (never enqueued: checked first) is named as such. */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : '(not a URL)';
}
