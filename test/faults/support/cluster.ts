// A run of store replicas (child processes) on one Redis prefix, wired to a History: outcomes delivered to a
// holder are its MCP responses, and every transition a replica wins is the card update that replica makes.
import { once } from 'node:events';
import type { EndReason, NewQuestion, Outcome, Question } from '../../../src/relay/types.js';
import { RedisConnections, endClient, keys, type RedisClient } from '../../../src/redis/index.js';
import { uniquePrefix } from '../../setup/context.js';
import { loadRedisConfig } from '../../support/config.js';
import { History } from './history.js';
import { Replica } from './processes.js';

export interface ClusterOptions {
  redisUrl: string;
  /** The Redis settings instead of REDIS_URL (a test topology's REDIS_CLUSTER_NODES, REDIS_SENTINELS...). */
  redisEnv?: Record<string, string>;
  replicas: number;
  /** Timer job lock and stalled-check interval of every replica, ms. */
  lockMs?: number;
  stallMs?: number;
  /** Clock offset of each replica by index, ms. */
  skewMs?: number[];
}

export class Cluster {
  readonly history = new History();
  private readonly delivered = new Map<string, () => void>();
  private readonly responded = new Map<string, Promise<void>>();

  private constructor(
    readonly prefix: string,
    readonly replicas: Replica[],
    readonly redis: RedisClient,
  ) {
    for (const replica of replicas) {
      replica.on((e) => {
        if (e.event === 'outcome') {
          this.history.response(e.id, e.outcome ?? { action: 'cancel' });
          this.delivered.get(e.id)?.();
        }
        if (e.event === 'timedOut' && e.won && e.outcome) this.history.card(e.id, e.outcome);
      });
    }
  }

  static async start(o: ClusterOptions): Promise<Cluster> {
    const prefix = uniquePrefix();
    const replicas = await Promise.all(
      Array.from({ length: o.replicas }, (_, i) =>
        Replica.start({
          redisUrl: o.redisUrl,
          ...(o.redisEnv ? { redisEnv: o.redisEnv } : {}),
          prefix,
          holderId: `replica-${i}`,
          lockMs: o.lockMs ?? 2_000,
          stallMs: o.stallMs ?? 1_000,
          skewMs: o.skewMs?.[i] ?? 0,
        }),
      ),
    );
    const env = o.redisEnv ?? { REDIS_URL: o.redisUrl };
    const inspector = await new RedisConnections(loadRedisConfig(env)).command('fault-inspector');
    return new Cluster(prefix, replicas, inspector);
  }

  /** `replicas` replica processes on a fresh prefix, each reading its inbox (so each can hold questions). */
  static async withInboxes(redisUrl: string, replicas: number): Promise<Cluster> {
    const c = await Cluster.start({ redisUrl, replicas });
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startInbox' })));
    return c;
  }

  replica(i: number): Replica {
    const r = this.replicas[i];
    if (!r) throw new Error(`no replica ${i}`);
    return r;
  }

  /** Creates a question on `holder` (which must run its inbox) and records it with its delivery. */
  async ask(holder: Replica, question: NewQuestion): Promise<Question> {
    const q = await holder.create(question);
    this.history.created(q);
    this.responded.set(q.id, new Promise<void>((resolve) => this.delivered.set(q.id, resolve)));
    return q;
  }

  /** A person's answer handled by `replica`; the winner's outcome is what the card shows. */
  async answer(replica: Replica, id: string, outcome: Outcome, reason: EndReason): Promise<boolean> {
    const result = await replica.finish(id, outcome, reason);
    if (result.won) this.history.card(id, outcome);
    return result.won;
  }

  /** Resolves once every question asked so far has reached its holder. */
  async allResponded(): Promise<void> {
    await Promise.all(this.responded.values());
  }

  /**
   * Reads each question's stored end (Redis TIME endedAt and outcome) into the history, then checks it. After a
   * failover or a restart the inspector's own connection may still be finding Redis (it has no offline queue):
   * the reads wait until it is ready, for at most `graceMs`.
   */
  async check(graceMs: number): Promise<string[]> {
    const k = keys(this.prefix);
    if (this.redis.status !== 'ready')
      await once(this.redis, 'ready', { signal: AbortSignal.timeout(graceMs) });
    for (const id of this.history.ids()) {
      const [endedAt, outcome] = await this.redis.hmget(k.question(id), 'endedAt', 'outcome');
      if (!endedAt || !outcome) continue;
      const stored = JSON.parse(outcome) as Outcome & { contentDropped?: boolean };
      this.history.ended(id, {
        endedAt: Number(endedAt),
        outcome: stored,
        contentDropped: stored.contentDropped,
      });
    }
    return this.history.check({ graceMs });
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.stop()));
    await endClient(this.redis, false);
  }
}
