// Webhooks as the composition root starts them: with ELICIT_RELAY_WEBHOOK_SECRET set, this replica runs a
// delivery worker and one consumer of the ended stream's `webhooks` group, which (exactly one replica per end)
// queues the delivery of an ended API question or call that has a callbackUrl. Without the secret nothing is
// sent.
import type { AppConfig } from '../config/index.js';
import type { Clock } from '../clock.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Question } from '../relay/types.js';
import type { StoreLogger } from '../redis/index.js';
import { allowListOf } from './hosts.js';
import { DEFAULT_RETRY } from './retry.js';
import { Webhooks, type GaveUp, type WebhookRequest, type WebhooksOptions } from './queue.js';

/** The consumer group of the ended stream whose consumers queue deliveries. */
const ENDED_GROUP = 'webhooks';

export interface WebhookDeps {
  /** Hands every question and call end to one consumer of `group` across replicas (src/api EndedEvents). */
  ended: {
    consume(
      group: string,
      handler: (event: { id: string; kind: 'question' | 'call' }) => Promise<void>,
    ): Promise<void>;
  };
  get(id: string): Promise<Question | undefined>;
  /** The question as its GET returns it: the delivery's body. */
  view(question: Question): Record<string, unknown>;
  /** An ended call's delivery (its GET JSON as body), or undefined when it has no callbackUrl (src/api). */
  callEnded(id: string): Promise<Omit<WebhookRequest, 'type' | 'resourceId'> | undefined>;
  onGaveUp: (gaveUp: GaveUp) => Promise<void>;
  /** Hears each attempt's outcome (metrics). */
  onAttempt?: WebhooksOptions['onAttempt'];
  clock: Pick<Clock, 'now' | 'random'>;
  logger: StoreLogger & { error(obj: object, msg: string): void };
}

export async function startWebhooks(config: AppConfig, deps: WebhookDeps, parts: Lifecycle): Promise<void> {
  const secret = config.api.webhookSecret;
  const allowed = allowListOf(config.api.webhookHosts);
  if (secret === undefined || allowed.length === 0) return;
  const { clock, logger, onGaveUp } = deps;
  const baseMs = config.api.webhookRetryBaseMs;
  const retry = baseMs === undefined ? {} : { retry: { ...DEFAULT_RETRY, baseMs } };
  const webhooks = await Webhooks.open({
    ...config.redis,
    secret,
    allowed,
    clock,
    logger,
    onGaveUp,
    ...retry,
  });
  parts.push('webhooks', () => webhooks.close());
  await webhooks.start();
  await deps.ended.consume(ENDED_GROUP, async ({ id, kind }) => {
    if (kind === 'call') {
      const call = await deps.callEnded(id);
      if (call) await webhooks.enqueue({ type: 'call.ended', resourceId: id, ...call });
      return;
    }
    const question = await deps.get(id);
    if (!question?.callbackUrl || question.client === undefined) return;
    const { callbackUrl, client } = question;
    const body = deps.view(question);
    await webhooks.enqueue({ type: 'question.ended', resourceId: id, url: callbackUrl, body, client });
  });
}
