// A failover with questions pending, checked by the fault suite's history checker: three store replicas (child
// processes) on the topology ask questions; the master holding them is killed; answers given while the
// topology fails over are either applied or refused (the person is told to try again: the Slack side answers
// a redis_unavailable with that), and are then tried again; timeouts due meanwhile must still fire. After
// the failover every question must have ended exactly once, by its deadline plus GRACE_MS.
import { vi } from 'vitest';
import { Cluster } from '../../faults/support/cluster.js';
import type { EndReason, Outcome } from '../../../src/relay/types.js';
import { newQuestion } from '../../store/helpers.js';

/** How late past its deadline a question may end because of the failover, ms (detection + election + retries). */
export const GRACE_MS = 20_000;

export interface FailoverRun {
  /** Answers Redis refused at first during or just after the failover (the person was told to retry). */
  refusedDuringFailover: number;
  problems: string[];
}

/**
 * `synced` waits until the replicas have every acknowledged write (so the test is about failover, not about
 * the last-second loss the README describes); `kill` kills the master; `failedOver` resolves once a replica
 * serves as master.
 */
export async function failover(
  redisEnv: Record<string, string>,
  steps: { synced(): Promise<void>; kill(): Promise<void>; failedOver(): Promise<void> },
): Promise<FailoverRun> {
  const c = await Cluster.start({ redisUrl: '', redisEnv, replicas: 3 });
  try {
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startInbox' })));
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startTimeouts', hold: false })));
    const ask = (i: number, timeoutMs: number) => c.ask(c.replica(i % 3), newQuestion({ timeoutMs }));
    // Due while the master is down: detection (~1 s) plus election (~1-2 s) outlast 3 s from here.
    await Promise.all(Array.from({ length: 10 }, (_, i) => ask(i, 3_000)));
    const answered = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(i, 60_000)));
    const [before, during, after] = [answered.slice(0, 5), answered.slice(5, 12), answered.slice(12)];
    for (const q of before) await c.answer(c.replica(1), q.id, { action: 'decline' }, 'declined');
    await steps.synced();
    await steps.kill();
    let refused = 0;
    // A replica may still refuse an answer after the sentinels named the new master (its connection has not
    // found it yet): the person is told to try again, as during the failover.
    const answerUntilApplied = async (i: number, id: string, outcome: Outcome, reason: EndReason) => {
      const first = await c.answer(c.replica(i), id, outcome, reason).then(
        () => true,
        () => false,
      );
      if (first) return;
      refused += 1;
      await vi.waitFor(() => c.answer(c.replica(i), id, outcome, reason), {
        timeout: GRACE_MS,
        interval: 100,
      });
    };
    for (const q of during) await answerUntilApplied(2, q.id, { action: 'decline' }, 'declined');
    await steps.failedOver();
    for (const q of after)
      await answerUntilApplied(0, q.id, { action: 'accept', content: { ok: true } }, 'answered');
    await c.allResponded();
    return { refusedDuringFailover: refused, problems: await c.check(GRACE_MS) };
  } finally {
    await c.close();
  }
}
