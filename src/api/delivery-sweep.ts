// A replica can die between storing an API question and attaching its card (before the outbox job was added,
// or after Slack took the post). No MCP session waits for such a question, so nothing else would notice: every
// replica sweeps now and then for pending API questions without a card and delivers them again. The outbox's
// per-question key makes a repeat the same post; a card that cannot be posted ends the question as
// delivery_failed (Relay.deliver), so none hangs silently until its deadline.
import type { RelayClock } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import { repeatEvery } from './repeat.js';

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
        deps.logger.warn({ err, questionId: question.id }, 'could not deliver an API question again');
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
    (err) => deps.logger.warn({ err }, 'undelivered API questions not swept'),
  );
}
