// Questions whose card no live replica will attach: an API question's creator can die between storing it and
// attaching its card (before the outbox job was added, or after Slack took the post), and a durable 2026
// round's replica can stop or die with its questions' posts still queued (another replica's outbox makes them,
// but only the poster attaches). Nothing else would notice, since no MCP session here waits for them: every
// replica sweeps now and then for such pending questions without a card and delivers them again. The outbox's
// per-question key makes a repeat the same post (or reads back the one another worker made); a card that
// cannot be posted ends the question as delivery_failed (Relay.deliver), so none hangs silently until its
// deadline.
import { repeatEvery } from '../repeat.js';
import type { RelayClock } from './ports.js';
import type { Question } from './types.js';

export interface DeliverySweepDeps {
  undelivered(graceMs: number): Promise<Question[]>;
  redeliver(question: Question): Promise<void>;
  clock: RelayClock;
  logger: { warn(obj: object, msg: string): void };
}

export interface DeliverySweepOptions {
  /** Age (ms) from which a question without a card counts as undelivered; its creator is then presumed gone. Default 60 000. */
  graceMs?: number;
  /** Time between sweeps, ms. Default half the grace. */
  everyMs?: number;
}

/** One sweep: delivers every undelivered question found; resolves once each has been tried. */
export async function sweepUndelivered(deps: DeliverySweepDeps, graceMs: number): Promise<number> {
  const started = await startDeliveries(deps, graceMs, new Set());
  await Promise.all(started);
  return started.length;
}

/**
 * Sweeps every `everyMs` until the returned stop(), which waits for a sweep's reads but not for the deliveries
 * it started: a delivery can wait long for its post (a busy DM is paced at one a second), and a stopping replica
 * already waits a bounded time for its card posts in flight (CardDelivery.settled), these among them. A question
 * whose delivery is still under way is not delivered a second time meanwhile.
 */
export function startDeliverySweep(
  deps: DeliverySweepDeps,
  options: DeliverySweepOptions = {},
): () => Promise<void> {
  const graceMs = options.graceMs ?? 60_000;
  const everyMs = options.everyMs ?? Math.ceil(graceMs / 2);
  const delivering = new Set<string>();
  const sweep = () => startDeliveries(deps, graceMs, delivering);
  return repeatEvery(deps.clock, everyMs, sweep, (err) =>
    deps.logger.warn({ err }, 'undelivered questions not swept'),
  );
}

/**
 * Starts delivering every undelivered question found but those in `delivering` (each is in it while its delivery
 * is under way); returns the deliveries started. A failure is logged: the next sweep tries again.
 */
async function startDeliveries(
  deps: DeliverySweepDeps,
  graceMs: number,
  delivering: Set<string>,
): Promise<Promise<void>[]> {
  const started: Promise<void>[] = [];
  for (const question of await deps.undelivered(graceMs)) {
    if (delivering.has(question.id)) continue;
    delivering.add(question.id);
    const delivery = deps
      .redeliver(question)
      .catch((err: unknown) => {
        deps.logger.warn({ err, questionId: question.id }, 'could not deliver an undelivered question again');
      })
      .finally(() => delivering.delete(question.id));
    started.push(delivery);
  }
  return started;
}
