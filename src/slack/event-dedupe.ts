// Events API retries processed once: Bolt acks every event delivery before any middleware runs (so each one
// gets its 200 at once); this global middleware then lets only the first delivery of an event_id, across all
// replicas, reach the listeners. A retry of an event whose first delivery failed midway is dropped too:
// events are processed at most once.
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../logger.js';
import type { EventDeliveryClaims } from './state/index.js';

function eventIdOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { type, event_id: eventId } = body as { type?: unknown; event_id?: unknown };
  return type === 'event_callback' && typeof eventId === 'string' ? eventId : undefined;
}

export function processEventsOnce(
  deliveries: EventDeliveryClaims,
  logger: Pick<Logger, 'info'>,
): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const eventId = eventIdOf(body);
    if (eventId !== undefined && !(await deliveries.claim(eventId))) {
      const { retryNum, retryReason } = context;
      logger.info({ eventId, retryNum, retryReason }, 'event delivered again; already taken, dropped');
      return;
    }
    await next();
  };
}
