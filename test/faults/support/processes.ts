// Spawns store replicas (replica.ts) as child processes and plays the nemesis on them: SIGKILL, SIGSTOP and
// SIGCONT by pid. Requests and events travel over the IPC channel; everything is awaited, nothing polled.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { NewQuestion, Outcome, Question, EndReason, FinishResult } from '../../../src/relay/types.js';
import { compiled } from '../../setup/compiled.js';
import type { ReplicaEvent, Request } from './replica.js';

export interface ReplicaOptions {
  redisUrl: string;
  /** The Redis settings instead of REDIS_URL (REDIS_CLUSTER_NODES, REDIS_SENTINELS... of a test topology). */
  redisEnv?: Record<string, string>;
  prefix: string;
  holderId: string;
  /** Timer job lock and stalled-check interval, ms (small, so recovery bounds stay short). */
  lockMs: number;
  stallMs: number;
  /** This process's clock offset, ms. */
  skewMs?: number;
}

type Reply = { seq: number; ok: boolean; value?: unknown; error?: string };

export class Replica {
  private seq = 0;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private readonly listeners = new Set<(e: ReplicaEvent) => void>();
  readonly exited: Promise<unknown>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = once(child, 'exit');
    child.on('message', (m: Reply | ReplicaEvent) => {
      if ('seq' in m) this.pending.get(m.seq)?.(m);
      else for (const listen of this.listeners) listen(m);
    });
  }

  static async start(o: ReplicaOptions): Promise<Replica> {
    // replica.ts compiled once for the run (test/setup/compiled.ts), and none of this worker's Node flags.
    const child = fork(compiled('test/faults/support/replica.ts'), [], {
      execArgv: [],
      env: {
        PATH: process.env.PATH ?? '',
        ...(o.redisEnv ?? { REDIS_URL: o.redisUrl }),
        REDIS_PREFIX: o.prefix,
        HOLDER_ID: o.holderId,
        TIMER_LOCK_MS: String(o.lockMs),
        TIMER_STALL_MS: String(o.stallMs),
        CLOCK_SKEW_MS: String(o.skewMs ?? 0),
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const replica = new Replica(child);
    await Promise.race([
      replica.next((e) => e.event === 'ready'),
      replica.exited.then(() => Promise.reject(new Error('replica exited before it was ready'))),
    ]);
    return replica;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Calls `fn` for every event from now on. */
  on(fn: (e: ReplicaEvent) => void): void {
    this.listeners.add(fn);
  }

  /** The next event that matches. */
  next(match: (e: ReplicaEvent) => boolean): Promise<ReplicaEvent> {
    return new Promise((resolve) => {
      const listen = (e: ReplicaEvent) => {
        if (!match(e)) return;
        this.listeners.delete(listen);
        resolve(e);
      };
      this.listeners.add(listen);
    });
  }

  create(question: NewQuestion): Promise<Question> {
    return this.call({ op: 'create', question }) as Promise<Question>;
  }

  finish(id: string, outcome: Outcome, reason: EndReason): Promise<FinishResult> {
    return this.call({ op: 'finish', id, outcome, reason }) as Promise<FinishResult>;
  }

  async call(request: Request): Promise<unknown> {
    const seq = ++this.seq;
    const reply = new Promise<Reply>((resolve) => this.pending.set(seq, resolve));
    this.child.send({ seq, request });
    const { ok, value, error } = await reply;
    this.pending.delete(seq);
    if (!ok) throw new Error(`replica ${this.pid}: ${error ?? 'failed'}`);
    return value;
  }

  /** SIGKILL (nothing runs after it) and wait for the exit. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Closes the store and lets the process end on its own. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.call({ op: 'close' }).catch(() => undefined);
    this.child.disconnect();
    await this.exited;
  }
}
