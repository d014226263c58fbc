// Prometheus metrics: one Metrics object per process (its own Registry), served at GET /metrics on PORT.
import type { RequestListener } from 'node:http';
import { probeRedis } from '../readiness.js';
import type { McpState, Metrics, MetricSources } from './metrics.js';

export { Metrics, type McpState, type MetricSources } from './metrics.js';

/** The running parts the levels are read from. */
export interface WatchedParts {
  relay: { readonly waiting: number };
  outbox: { backlog(): Promise<{ depth: number; oldestAt?: number }> };
  hub: { status(): McpState[] };
  /** Anything that PINGs Redis (true on PONG): Slack's state, as /readyz does. */
  state: { answers(): Promise<boolean> };
}

export function metricSources(parts: WatchedParts): MetricSources {
  return {
    pending: () => parts.relay.waiting,
    outbox: () => parts.outbox.backlog(),
    servers: () => parts.hub.status(),
    redis: async () => (await probeRedis(() => parts.state.answers())) === 'ok',
  };
}

/** GET /metrics: the exposition text, or 500 when collecting failed. */
export function metricsRoute(metrics: Pick<Metrics, 'scrape'>): RequestListener {
  return (_req, res) => {
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  };
}
