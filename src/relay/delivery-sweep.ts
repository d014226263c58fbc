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
  /** Time between sweeps, ms. Default 30 000. */
  everyMs?: number;
  /** Age (ms) from which a question without a card counts as undelivered; its creator is then presumed gone. Default 60 000. */
  graceMs?: number;
}

/** One sweep: delivers every undelivered question found; resolves once each has been tried. */
export async function sweepUndelivered(deps: DeliverySweepDeps, graceMs: number): Promise<number> {
  const stuck = await deps.undelivered(graceMs);
  await Promise.all(
    stuck.map((question) =>
      deps.redeliver(question).catch((err: unknown) => {
        deps.logger.warn({ err, questionId: question.id }, 'could not deliver an undelivered question again');
      }),
    ),
  );
  return stuck.length;
}

/** Sweeps every `everyMs` until the returned stop() (which waits for a sweep in progress). */
export function startDeliverySweep(
  deps: DeliverySweepDeps,
  options: DeliverySweepOptions = {},
): () => Promise<void> {
  const everyMs = options.everyMs ?? 30_000;
  const graceMs = options.graceMs ?? 60_000;
  return repeatEvery(
    deps.clock,
    everyMs,
    () => sweepUndelivered(deps, graceMs),
    (err) => deps.logger.warn({ err }, 'undelivered questions not swept'),
  );
}
