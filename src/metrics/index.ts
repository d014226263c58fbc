// Prometheus metrics: one Metrics object per process (its own Registry), served at GET /metrics on PORT.
import type { RequestListener } from 'node:http';
import type { Logger } from '../logger.js';
import { REDIS_PROBE_TIMEOUT_MS, probeRedis, type RedisProbes } from '../readiness.js';
import { answerWithin } from '../settle.js';
import type { McpState, Metrics, MetricSources, OutboxBacklog } from './metrics.js';

export { Metrics, type McpState, type MetricSources, type OutboxBacklog } from './metrics.js';

/** The running parts the levels are read from. */
export interface WatchedParts {
  relay: { readonly waiting: number };
  outbox: { backlog(): Promise<OutboxBacklog> };
  hub: { status(): McpState[] };
  /** Anything that PINGs Redis (true on PONG) and reads its INFO memory: Slack's state, as /readyz does. */
  state: RedisProbes;
  /**
   * True for a server each person signs in to (McpAuth.personal, the hub's own test): it keeps no control link,
   * so it has no connection of its own to report. Absent: every server keeps one.
   */
  personal?: (server: string) => boolean;
  /** The question store: how late its most overdue question is (ms, Redis TIME). Absent: that gauge stays 0. */
  timeouts?: { overdueMs(): Promise<number> };
}

export function metricSources(parts: WatchedParts): MetricSources {
  const personal = parts.personal ?? (() => false);
  return {
    pending: () => parts.relay.waiting,
    outbox: () => parts.outbox.backlog(),
    // A server without a control link sits 'idle' (or 'reconnecting' after a person's session dropped) until
    // someone opens a session: reported as 0, it would fire ElicitRelayMcpServerDown for a healthy server.
    servers: () => parts.hub.status().filter((s) => !personal(s.server)),
    redis: async () => (await probeRedis(() => parts.state.answers())) === 'ok',
    // Bounded as the PING is, so a hung Redis still gets its scrape answered promptly (the gauges kept).
    redisMemory: () => answerWithin(parts.state.memory(), REDIS_PROBE_TIMEOUT_MS, undefined),
    // Bounded and shared across scrapes by Metrics (a hung Redis leaves the gauge at its last value).
    ...(parts.timeouts ? { overdueMs: parts.timeouts.overdueMs.bind(parts.timeouts) } : {}),
  };
}

/**
 * The body of /metrics' 500 when collecting failed: a fixed text, since the port is unauthenticated and the
 * error's own text can carry a Redis host or a URL with its password (it goes to the log instead).
 */
export const METRICS_UNAVAILABLE = 'metrics unavailable\n';

/** GET /metrics: the exposition text, or 500 METRICS_UNAVAILABLE when collecting failed (the error logged). */
export function metricsRoute(
  metrics: Pick<Metrics, 'scrape'>,
  logger: Pick<Logger, 'error'>,
): RequestListener {
  return (_req, res) => {
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        logger.error({ err: error }, '/metrics: collecting the metrics failed (answered 500)');
        res.writeHead(500, { 'content-type': 'text/plain' }).end(METRICS_UNAVAILABLE);
      },
    );
  };
}
