// The calls part of the API as startApi builds it: the Redis records, the runner and its sweep for calls whose
// replica is gone (both stopped with the API), the routes' dependencies, and the hooks other parts use (the
// relay lists a call's questions on it; the webhooks consumer asks for an ended call's delivery).
import type { AppConfig } from '../config/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Keys, RedisClient } from '../redis/index.js';
import type { ResumedRound } from '../mcp/index.js';
import type { Question } from '../relay/types.js';
import { ENDED_MAX_LEN, replicaTimings } from '../store/index.js';
import { CallRunner, type ApiToolRun, type CallRunnerDeps } from './call-runner.js';
import { CallStore } from './call-store.js';
import { callView, type CallsDeps } from './calls.js';
import type { QuestionsDeps } from './questions.js';

/** Finished calls are kept as long as finished questions when ELICIT_RELAY_RETENTION is unset: 24 h, in s. */
const DEFAULT_RETENTION_SEC = 86_400;

export interface CallsPart {
  /** What the /calls routes need. */
  routes: CallsDeps;
  /** The relay's hook that lists a call's questions on it. */
  questionCreated: (question: Question) => void;
  /** Resumes an API call from its durable round taken over here; its record ends here (CallRunner.resume). */
  resumeCall: (run: ApiToolRun & { resume: ResumedRound }) => Promise<void>;
  /** An ended call's webhook delivery: its GET JSON, when it has a callbackUrl. */
  callEnded: (
    id: string,
  ) => Promise<{ url: string; client: string; body: Record<string, unknown> } | undefined>;
}

export function startCalls(
  config: AppConfig,
  deps: Omit<CallRunnerDeps, 'store'> & { holderId: string; connected?: CallsDeps['connected'] },
  shared: { redis: RedisClient; keys: Keys; questions: QuestionsDeps; admit: CallsDeps['admit'] },
  parts: Lifecycle,
): CallsPart {
  const store = new CallStore({
    redis: shared.redis,
    keys: shared.keys,
    holderId: deps.holderId,
    retentionSec: config.redis.retentionSec ?? DEFAULT_RETENTION_SEC,
    endedMaxLen: ENDED_MAX_LEN,
    now: () => deps.clock.now(),
  });
  const runner = new CallRunner({ ...deps, store });
  // As often as the question store's orphan sweep: a running call's holder is judged by the same lease.
  const { sweepEveryMs } = replicaTimings(config.replicaLeaseMs);
  parts.push('calls of stopped replicas sweep', runner.startSweep(sweepEveryMs));
  parts.push('running calls', () => runner.stop());
  return {
    routes: callRoutes(config, { ...deps, ...shared, runner, store }),
    questionCreated: (question) => runner.questionCreated(question),
    resumeCall: (run) => runner.resume(run),
    callEnded: async (id) => {
      const call = await store.get(id);
      if (call?.callbackUrl === undefined) return undefined;
      return { url: call.callbackUrl, client: call.client, body: callView(call) };
    },
  };
}

/** What the /calls routes need: the runner and records of this part, and what they share with /questions. */
function callRoutes(
  config: AppConfig,
  deps: Pick<CallsDeps, 'admit' | 'clock'> & {
    connected?: CallsDeps['connected'];
    questions: QuestionsDeps;
    runner: CallRunner;
    store: CallStore;
  },
): CallsDeps {
  const { questions, runner, store } = deps;
  return {
    servers: config.servers.map((s) => s.name),
    start: (call, args) => runner.start(call, args),
    get: (id) => store.get(id),
    connected: deps.connected ?? (() => Promise.resolve(true)),
    admit: deps.admit,
    refuseCallback: (url) => questions.refuseCallback(url),
    ended: questions.ended,
    idempotency: questions.idempotency,
    clock: deps.clock,
    ...(questions.severalWorkspaces === undefined ? {} : { severalWorkspaces: questions.severalWorkspaces }),
  };
}
