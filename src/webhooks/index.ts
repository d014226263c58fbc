// Signed webhooks for ended questions and calls: the allow-list check the API runs at creation, and the
// BullMQ-backed deliverer. Front door of src/webhooks.
import { type AllowList, checkCallbackUrl, isRefusal } from './hosts.js';
import type { WebhookRefusal } from './errors.js';

export { WebhookError, type WebhookErrorCode, type WebhookRefusal } from './errors.js';
export { type AllowList, type AllowedHost, allowListOf, parseAllowList } from './hosts.js';
export { startWebhooks, type WebhookDeps } from './start.js';
export { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from './signature.js';
export { DEFAULT_RETRY, type RetrySettings } from './retry.js';
export type { Resolve } from './attempt.js';
export {
  ATTEMPT_TIMEOUT_MS,
  Webhooks,
  deliveryId,
  type AttemptOutcome,
  type GaveUp,
  type WebhookRequest,
  type WebhookType,
  type WebhooksOptions,
} from './queue.js';

/** The creation-time check of a callbackUrl: undefined when allowed, else why not (the API's 400 reason). */
export function refuseCallbackUrl(url: string, allowed: AllowList): WebhookRefusal | undefined {
  const checked = checkCallbackUrl(url, allowed);
  return isRefusal(checked) ? checked : undefined;
}
