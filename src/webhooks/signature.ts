// How a delivery proves it comes from this bot (PRODUCT "Webhooks"): an HMAC-SHA256 over the timestamp and the
// exact body bytes, so a receiver can refuse forged and replayed (old-timestamp) deliveries.
import { createHmac } from 'node:crypto';

export const TIMESTAMP_HEADER = 'X-Elicit-Relay-Timestamp';
export const DELIVERY_HEADER = 'X-Elicit-Relay-Delivery';
export const SIGNATURE_HEADER = 'X-Elicit-Relay-Signature';

/** `v1=<hex HMAC-SHA256 of "v1:<timestamp>:<body>">` keyed with the secret; `timestamp` in Unix seconds. */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`v1:${timestamp}:${body}`).digest('hex');
  return `v1=${mac}`;
}

/** The headers of one attempt; the delivery id stays the same across the attempts of one delivery. */
export function deliveryHeaders(
  secret: string,
  delivery: { id: string; body: string },
  nowMs: number,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'elicit-relay-webhooks',
    [TIMESTAMP_HEADER]: String(timestamp),
    [DELIVERY_HEADER]: delivery.id,
    [SIGNATURE_HEADER]: signature(secret, timestamp, delivery.body),
  };
}
