// Every Prometheus series the bot exports, on one Registry instance (no global registry), served at GET /metrics.
// The parts never import prom-client: the relay gets a RelayObserver, the MCP hub an onStatus hook, the Slack
// side a counting fetch and an ack hook; levels (pending, outbox backlog, MCP state, Redis, overdue timeouts) are
// read at scrape time through the Sources given to watch(). Labels carry servers, methods, outcomes and reasons,
// never user or question ids.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../clock.js';
import { REDIS_PROBE_TIMEOUT_MS } from '../readiness.js';
import { outOfMemory, type RedisMemory } from '../redis/index.js';
import { isPersonReason, type Question, type QuestionSource } from '../relay/types.js';
import { SharedRead } from './shared-read.js';

/** Time to answer, in seconds: from seconds (a quick click) to a day (the longest timeouts people set). */
const ANSWER_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600];
/** Timeout lateness, in seconds: PRODUCT asks for well under a second, so the buckets are finest there. */
const LATENESS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
/** Slack ack latency, in seconds: Slack gives up after 3 s. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
/**
 * How long a scrape waits for the outbox's levels and the timeouts' lateness, in ms: as long as the Redis probe
 * waits for its PONG, so that a hung Redis (SIGSTOP, a stuck failover) still gets its scrape answered in ~0.5 s,
 * with elicit_relay_redis_up 0, well inside Prometheus' scrape timeout (10 s by default); those gauges then keep
 * their last value.
 */
const REDIS_READ_MS = REDIS_PROBE_TIMEOUT_MS;

/** One MCP server's connection as the hub reports it (src/mcp ServerStatus, structurally). */
export interface McpState {
  server: string;
  state: string;
}

/** The Slack outbox's jobs not yet done, and when the oldest of them was queued (epoch ms). */
export interface OutboxBacklog {
  depth: number;
  oldestAt?: number;
}

/** What the bot's levels are read from at scrape time. */
export interface MetricSources {
  /** Questions this replica holds waiting for their outcome. */
  pending(): number;
  outbox(): Promise<OutboxBacklog>;
  /** The connection state of each configured MCP server that keeps a control link (the others have no series). */
  servers(): McpState[];
  /** True when Redis answers a PING in time (the /readyz probe). */
  redis(): Promise<boolean>;
  /** How full Redis is (INFO memory); undefined when unknown. Absent: the memory gauges have no series. */
  redisMemory?(): Promise<RedisMemory | undefined>;
  /**
   * How far past its deadline the most overdue pending question is, ms (0 when none), on Redis TIME, across
   * replicas. Absent: elicit_relay_timeouts_overdue_seconds stays 0.
   */
  overdueMs?(): Promise<number>;
}

const sourceOf = (question: Pick<Question, 'source'>): QuestionSource => question.source ?? 'mcp';

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources | undefined;
  private readonly lastState = new Map<string, string>();
  private reading: Promise<Reading | undefined> = Promise.resolve(undefined);
  private readonly outboxRead = new SharedRead<OutboxBacklog>(REDIS_READ_MS);
  private readonly overdueRead = new SharedRead<number>(REDIS_READ_MS);

  private readonly created = new Counter({
    name: 'elicit_relay_questions_created_total',
    help: 'Questions asked, by server and source (mcp: an MCP server elicited; api: the HTTP API asked).',
    labelNames: ['server', 'source'] as const,
    registers: [this.registry],
  });
  private readonly ended = new Counter({
    name: 'elicit_relay_questions_ended_total',
    help: 'Questions ended, counted by the replica whose transition won, by outcome (accept|decline|cancel) and reason.',
    labelNames: ['server', 'source', 'outcome', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly answerSeconds = new Histogram({
    name: 'elicit_relay_question_answer_seconds',
    help: 'Seconds from asking to a person answering, declining or closing the form.',
    labelNames: ['server', 'source', 'outcome'] as const,
    buckets: ANSWER_BUCKETS,
    registers: [this.registry],
  });
  private readonly lateness = new Histogram({
    name: 'elicit_relay_timeout_lateness_seconds',
    help: 'Seconds between a question deadline and the timeout that ended it.',
    labelNames: ['server'] as const,
    buckets: LATENESS_BUCKETS,
    registers: [this.registry],
  });
  private readonly slackCalls = new Counter({
    name: 'elicit_relay_slack_api_calls_total',
    help: 'Slack Web API calls by method and error ("none" when ok, "ratelimited" for a 429, "http_<status>" for another HTTP failure, "request_error" when no answer came, else Slack\'s error code).',
    labelNames: ['method', 'error'] as const,
    registers: [this.registry],
  });
  private readonly ackSeconds = new Histogram({
    name: 'elicit_relay_slack_ack_seconds',
    help: 'Seconds from receiving a Slack request to its ack: by mode (http: arrival at /slack/events to the response, by HTTP status; socket: an envelope\'s receipt to its ack, status "ack").',
    labelNames: ['mode', 'status'] as const,
    buckets: ACK_BUCKETS,
    registers: [this.registry],
  });
  private readonly apiRequests = new Counter({
    name: 'elicit_relay_api_requests_total',
    help: 'Automations API requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: 'elicit_relay_webhook_attempts_total',
    help: 'Webhook delivery attempts by type (question.ended|call.ended) and outcome (delivered|retry|gave_up).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly reconnects = new Counter({
    name: 'elicit_relay_mcp_reconnects_total',
    help: 'Times an MCP server came back connected after being down.',
    labelNames: ['server'] as const,
    registers: [this.registry],
  });

  constructor(private readonly clock: Pick<Clock, 'now'>) {
    collectDefaultMetrics({ register: this.registry });
    this.levels();
  }

  /** Where pending, the outbox, MCP state and Redis are read from; before this, those series are absent. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /** The relay's observer port. */
  readonly relay = {
    created: (question: Question): void => {
      this.created.inc({ server: question.server, source: sourceOf(question) });
    },
    ended: (question: Question): void => this.onEnded(question),
  };

  /** The MCP hub's status hook: a server that comes back connected after being down counts a reconnect. */
  readonly mcpStatus = (status: McpState): void => {
    const before = this.lastState.get(status.server);
    this.lastState.set(status.server, status.state);
    if (status.state === 'connected' && (before === 'reconnecting' || before === 'failed'))
      this.reconnects.inc({ server: status.server });
  };

  /** One Slack Web API call made; `error` is "none" when it succeeded. */
  readonly slackCall = (method: string, error: string): void => {
    this.slackCalls.inc({ method, error });
  };

  /** One Slack request answered at /slack/events after `ms` milliseconds with `status`. */
  readonly slackAck = (ms: number, status: number): void => {
    this.ackSeconds.observe({ mode: 'http', status: String(status) }, ms / 1000);
  };

  /** One Socket Mode envelope acked after `ms` milliseconds. */
  readonly socketAck = (ms: number): void => {
    this.ackSeconds.observe({ mode: 'socket', status: 'ack' }, ms / 1000);
  };

  /** One Automations API request answered; `route` is its template (`/api/v1/questions/{id}`). */
  readonly apiRequest = (route: string, method: string, status: number): void => {
    this.apiRequests.inc({ route, method, status: String(status) });
  };

  /** One webhook delivery attempt and what came of it. */
  readonly webhookAttempt = (type: string, outcome: string): void => {
    this.webhookAttempts.inc({ type, outcome });
  };

  /** The exposition text and its content type, for GET /metrics. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    this.reading = this.read();
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private onEnded(question: Question): void {
    // Redis TIME, like createdAt and deadline; this replica's clock only for a record without it.
    const now = question.endedAt ?? this.clock.now();
    const outcome = question.outcome?.action ?? 'cancel';
    const labels = { server: question.server, source: sourceOf(question) };
    const reason = question.reason ?? 'unknown';
    this.ended.inc({ ...labels, outcome, reason });
    // Only a person's act counts towards time to answer.
    if (isPersonReason(reason))
      this.answerSeconds.observe({ ...labels, outcome }, Math.max(0, now - question.createdAt) / 1000);
    if (reason === 'timed_out')
      this.lateness.observe({ server: question.server }, Math.max(0, now - question.deadline) / 1000);
  }

  /** Gauges set at scrape time from the scrape's one reading of the watched sources. */
  private levels(): void {
    this.readGauge(
      'elicit_relay_questions_pending',
      'Questions this replica holds waiting for an outcome (sum over replicas for the deployment).',
      (r) => r.pending,
    );
    this.readGauge(
      'elicit_relay_redis_up',
      '1 when Redis answered a PING in time at scrape time, else 0.',
      (r) => (r.redisUp ? 1 : 0),
    );
    this.readGauge(
      'elicit_relay_redis_out_of_memory',
      '1 when Redis is past its maxmemory and refuses every write (OOM) at scrape time, else 0.',
      (r) => r.redisMemory && (outOfMemory(r.redisMemory) ? 1 : 0),
    );
    this.readGauge(
      'elicit_relay_redis_memory_used_bytes',
      'Bytes Redis counts against its maxmemory (used_memory less mem_not_counted_for_evict); on a Cluster, the master nearest its limit.',
      (r) => r.redisMemory?.usedBytes,
    );
    this.readGauge(
      'elicit_relay_redis_memory_max_bytes',
      "Redis's maxmemory in bytes (0: no limit); on a Cluster, the master nearest its limit.",
      (r) => r.redisMemory?.maxBytes,
    );
    this.readGauge(
      'elicit_relay_outbox_depth',
      'Slack outbox jobs (card posts and updates) waiting, delayed or running, across replicas.',
      (r) => r.backlog?.depth,
    );
    this.readGauge(
      'elicit_relay_outbox_oldest_age_seconds',
      'Age in seconds of the oldest job in the Slack outbox (0 when empty).',
      (r) => r.backlog && Math.max(0, r.now - (r.backlog.oldestAt ?? r.now)) / 1000,
    );
    this.readGauge(
      'elicit_relay_timeouts_overdue_seconds',
      'Seconds past its deadline (Redis TIME) of the most overdue pending question, 0 when none; the same on every replica. Over a minute or two: no timeout worker is taking its job.',
      (r) => (r.overdueMs === undefined ? undefined : r.overdueMs / 1000),
    );
    const connected: Gauge<'server'> = new Gauge({
      name: 'elicit_relay_mcp_server_connected',
      help: 'Each MCP server with a control link: 1 while it is connected, 0 otherwise (no series for a server each person signs in to).',
      labelNames: ['server'] as const,
      registers: [this.registry],
      collect: async () => {
        for (const s of (await this.reading)?.servers ?? [])
          connected.set({ server: s.server }, s.state === 'connected' ? 1 : 0);
      },
    });
  }

  /** A gauge set from the scrape's reading; left at its last value while nothing is watched or it is unknown. */
  private readGauge(name: string, help: string, value: (r: Reading) => number | undefined): void {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect: async () => {
        const reading = await this.reading;
        const v = reading && value(reading);
        if (v !== undefined) gauge.set(v);
      },
    });
  }

  /** Reads the async levels once per scrape (Prometheus' registry collects every metric at once). */
  private async read(): Promise<Reading | undefined> {
    const sources = this.sources;
    if (!sources) return undefined;
    const overdueMs = sources.overdueMs?.bind(sources);
    const [backlog, redisUp, redisMemory, overdue] = await Promise.all([
      this.outboxRead.answer(() => sources.outbox()),
      sources.redis().catch(() => false),
      sources.redisMemory?.().catch(() => undefined),
      overdueMs && this.overdueRead.answer(overdueMs),
    ]);
    return {
      backlog,
      redisUp,
      redisMemory,
      overdueMs: overdue,
      pending: sources.pending(),
      servers: sources.servers(),
      now: this.clock.now(),
    };
  }
}

interface Reading {
  /** Undefined when the outbox could not be read in time (Redis down or hung): the gauges keep their last value. */
  backlog: OutboxBacklog | undefined;
  redisUp: boolean;
  /** Undefined when unknown (INFO failed or late, or not watched): the memory gauges keep their last value. */
  redisMemory: RedisMemory | undefined;
  /** Undefined when unknown (failed or late, or not watched): the overdue gauge keeps its last value. */
  overdueMs: number | undefined;
  pending: number;
  servers: McpState[];
  now: number;
}
