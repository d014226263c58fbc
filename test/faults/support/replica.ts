// A store replica as a child process (forked by processes.ts): one QuestionStore driven over IPC, so tests
// can SIGKILL, SIGSTOP and SIGCONT a real process that holds questions, timer jobs or connections.
// Environment: the bot's Redis settings (REDIS_URL, or a Cluster's or Sentinel group's), REDIS_PREFIX, HOLDER_ID, TIMER_LOCK_MS, TIMER_STALL_MS, CLOCK_SKEW_MS (this
// process's Date.now runs that many ms off, as on a host with a skewed clock).
import type { EndReason, NewQuestion, Outcome } from '../../../src/relay/types.js';

export type Request =
  | { op: 'create'; question: NewQuestion }
  | { op: 'finish'; id: string; outcome: Outcome; reason: EndReason }
  | { op: 'startTimeouts'; hold: boolean }
  | { op: 'startInbox' }
  | { op: 'startLease' }
  | { op: 'release'; id: string }
  | { op: 'ping' }
  | { op: 'close' };

export type ReplicaEvent =
  | { event: 'ready' }
  | { event: 'due'; id: string }
  | { event: 'timedOut'; id: string; won: boolean; outcome?: Outcome }
  | { event: 'outcome'; id: string; outcome?: Outcome };

const env = (name: string): string | undefined => process.env[name];
const skew = Number(env('CLOCK_SKEW_MS') ?? 0);
if (skew !== 0) {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + skew;
}
const { QuestionStore } = await import('../../../src/store/index.js');
const { loadRedisConfig } = await import('../../support/config.js');

const send = (message: object): void => void process.send?.(message);
const releases = new Map<string, () => void>();
const store = await QuestionStore.open({
  ...loadRedisConfig(process.env),
  holderId: env('HOLDER_ID') ?? '',
  timers: { lockDurationMs: Number(env('TIMER_LOCK_MS')), stalledIntervalMs: Number(env('TIMER_STALL_MS')) },
  logger: { warn: () => undefined, info: () => undefined },
});

async function onDue(id: string, hold: boolean): Promise<void> {
  send({ event: 'due', id });
  if (hold) await new Promise<void>((resolve) => releases.set(id, resolve));
  const result = await store.finish(id, { action: 'cancel' }, 'timed_out');
  send({ event: 'timedOut', id, won: result.won, outcome: result.question?.outcome });
}

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'create':
      return store.create(request.question);
    case 'finish':
      return store.finish(request.id, request.outcome, request.reason);
    case 'startTimeouts':
      return store.startTimeouts((id) => onDue(id, request.hold));
    case 'startInbox':
      return store.startInbox((q) => send({ event: 'outcome', id: q.id, outcome: q.outcome }));
    case 'startLease':
      return store.startLease();
    case 'release':
      releases.get(request.id)?.();
      return undefined;
    case 'ping':
      return 'pong';
    case 'close':
      return store.close();
  }
}

process.on('message', (message: { seq: number; request: Request }) => {
  handle(message.request).then(
    (value) => send({ seq: message.seq, ok: true, value }),
    (err: unknown) => send({ seq: message.seq, ok: false, error: String(err) }),
  );
});
// A replica serves only the test process that forked it: once that process is gone (its worker ended while a
// test that timed out still held the replica, which then ran on for over an hour retrying a Cluster that no longer
// existed) the IPC channel closes, and the replica exits.
process.on('disconnect', () => process.exit(0));
send({ event: 'ready' });
