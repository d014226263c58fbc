// The audit trail in PostgreSQL (AUDIT_DATABASE_URL), for deployments that keep years of it: one row per event
// with the filtered fields as columns and the whole event as jsonb. The table and its indexes are created at
// start, idempotently, under an advisory lock so replicas starting together do not race on CREATE. Events come
// from the Redis Stream (postgres-feed.ts): each row names its stream entry (`stream_id`, unique), so an entry
// stored twice (retried after a failure, claimed from a replica that died) is one row.
// Pages follow `seq`, the order rows were stored (visible), not `at`: a backlog stored after an outage, or a dead
// replica's events claimed later, has an `at` earlier than rows a client already paged past, and by `at` it would
// be skipped. Writers take turns (WRITE_TURN_LOCK), so a row is visible before any row with a higher `seq` is.
import pg from 'pg';
import { AuditError, decodeCursor, encodeCursor } from './errors.js';
import {
  type AuditEvent,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  limitOf,
  parseEvent,
} from './types.js';

/** Any constant: the advisory lock that serialises the schema set-up of replicas starting at once. */
const SCHEMA_LOCK = 7_316_016;
/**
 * Any other constant: the advisory lock every INSERT holds from before it draws its first `seq` until it commits
 * (a transaction lock is released after the commit is visible). Without it two writers (the pools of several
 * replicas, a replica's batch and its retry pass) commit out of `seq` order: a reader that paged past the later
 * one's rows would never be shown the earlier one's. This relies on the sequence's default CACHE 1 (each nextval
 * drawn from the one sequence, in turn). Exported for tests that stand in for a writer mid-INSERT.
 */
export const WRITE_TURN_LOCK = 7_316_017;

/**
 * Statements run in order at every start. `stream_id` is added to a table made before it existed (ADD COLUMN IF
 * NOT EXISTS: a nullable column, no rewrite); its rows keep NULL, which the unique index allows any number of.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS audit_events (
     seq bigserial PRIMARY KEY,
     at timestamptz NOT NULL,
     type text NOT NULL,
     server text,
     user_id text,
     answered_by text,
     client text,
     event jsonb NOT NULL
   )`,
  'ALTER TABLE audit_events ADD COLUMN IF NOT EXISTS stream_id text',
  'CREATE UNIQUE INDEX IF NOT EXISTS audit_events_stream_id ON audit_events (stream_id)',
  'CREATE INDEX IF NOT EXISTS audit_events_at ON audit_events (at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_server ON audit_events (server, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_user ON audit_events (user_id, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_answered_by ON audit_events (answered_by, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_client ON audit_events (client, at, seq)',
];

/**
 * Rows in order, as one statement whatever their number: each column an array, stream_id conflicts skipped. The
 * write turn is taken in the statement itself, as an InitPlan gating the rows (a One-Time Filter, evaluated before
 * the first row and so before the first nextval): one round trip, and no open transaction a client lost in a
 * partition could leave holding the lock.
 */
const INSERT = `WITH turn AS (SELECT pg_advisory_xact_lock(${WRITE_TURN_LOCK}))
  INSERT INTO audit_events (stream_id, at, type, server, user_id, answered_by, client, event)
  SELECT s, a, t, sv, u, ab, c, e::jsonb
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    WITH ORDINALITY AS r(s, a, t, sv, u, ab, c, e, n)
  WHERE EXISTS (SELECT FROM turn)
  ORDER BY n
  ON CONFLICT (stream_id) DO NOTHING`;

/**
 * Connections per replica, writes and reads pooled apart: the feed's INSERTs (one per batch, short) never wait
 * behind `GET /api/v1/audit` pages (up to 1000 rows each), so a burst of reads cannot time a healthy write out
 * of the pool (CONNECT_TIMEOUT_MS) and set the feed retrying.
 */
const WRITE_POOL_MAX = 2;
const READ_POOL_MAX = 4;
/**
 * How long (ms) to wait for a connection, a new one or a pooled one while all are busy: without it a server that
 * never answers the connect (a partition) holds appends and `GET /api/v1/audit` forever. A healthy connect takes
 * milliseconds; 5 s fails well before an HTTP client gives up, as `postgres_error` (the API's 503).
 */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long (ms) one statement may go unanswered, timed by the client: it also covers a connection that went
 * silent mid-query (no FIN, no RST), which the server's own `statement_timeout` cannot see. The audit's
 * statements are short INSERTs and indexed reads; 5 s is far above them.
 */
const QUERY_TIMEOUT_MS = 5_000;
/** The schema's statements may wait on another replica building an index on a large table: 5 min each. */
const SCHEMA_QUERY_TIMEOUT_MS = 300_000;
/** TCP keep-alive probes after this long idle (ms), so a pooled connection to a vanished server is dropped. */
const KEEPALIVE_DELAY_MS = 10_000;

/** One row: the event, and the Redis Stream entry it came from (none for an event appended directly). */
export interface AuditRow {
  streamId?: string;
  event: AuditEvent;
}

export class PostgresAuditLog implements AuditLog {
  private constructor(
    private readonly writes: pg.Pool,
    private readonly reads: pg.Pool,
  ) {}

  /** Connects and creates the table and indexes when missing; rejects with AuditError 'postgres_error'. */
  static async open(connectionString: string): Promise<PostgresAuditLog> {
    try {
      await createSchema(connectionString);
    } catch (err) {
      throw wrap('set up the audit table', err);
    }
    return new PostgresAuditLog(
      openPool(connectionString, WRITE_POOL_MAX),
      openPool(connectionString, READ_POOL_MAX),
    );
  }

  /** One event with no stream entry (stream_id NULL): the contract suite, and a log used on its own. */
  append(event: AuditEvent): Promise<void> {
    return this.store([{ event }]);
  }

  /** Stores entries in order, once each: an entry whose stream id is already stored is skipped. */
  async store(rows: readonly AuditRow[]): Promise<void> {
    if (rows.length === 0) return;
    const column = (pick: (row: AuditRow) => string | undefined) =>
      rows.map((row) => {
        const value = pick(row);
        return value === undefined ? null : holdable(value);
      });
    const values = [
      column((e) => e.streamId),
      column((e) => e.event.at),
      column((e) => e.event.type),
      column((e) => e.event.server),
      column((e) => e.event.user),
      column((e) => e.event.answeredBy),
      column((e) => e.event.client),
      column((e) => JSON.stringify(e.event, holdableJson)),
    ];
    await this.writes.query(INSERT, values).catch((err: unknown) => {
      throw wrap('record audit events', err);
    });
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const limit = limitOf(query);
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (clause: (n: string) => string, value: unknown): void => {
      values.push(value);
      where.push(clause(`$${values.length}`));
    };
    if (query.since !== undefined) add((n) => `at >= ${n}`, new Date(query.since));
    if (query.until !== undefined) add((n) => `at < ${n}`, new Date(query.until));
    // Filters read as the columns were written: a NUL sent in one matches the U+FFFD stored for it.
    if (query.server !== undefined) add((n) => `server = ${n}`, holdable(query.server));
    if (query.client !== undefined) add((n) => `client = ${n}`, holdable(query.client));
    if (query.user !== undefined) add((n) => `(user_id = ${n} OR answered_by = ${n})`, holdable(query.user));
    if (query.cursor !== undefined) {
      add((n) => `seq > ${n}::bigint`, decodeCursor('p', query.cursor, isRowSeq));
    }
    values.push(limit);
    // Ordered by the table's column, named as such: a bare `seq` in ORDER BY is the text output column, and
    // '10' sorts before '9'.
    const sql = `SELECT seq::text AS seq, event::text AS event FROM audit_events
                 ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY audit_events.seq LIMIT $${values.length}`;
    const result = await this.reads
      .query<{ seq: string; event: string }>(sql, values)
      .catch((err: unknown) => {
        throw wrap('list audit events', err);
      });
    const events = result.rows.flatMap((row) => {
      const event = parseEvent(row.event);
      return event ? [{ ...event, id: encodeCursor('p', row.seq) }] : [];
    });
    const last = result.rows.at(-1);
    const cursor = last && result.rows.length === limit ? encodeCursor('p', last.seq) : undefined;
    return cursor === undefined ? { events } : { events, cursor };
  }

  async close(): Promise<void> {
    await Promise.all([this.writes.end(), this.reads.end()]);
  }
}

/**
 * Creates or updates the table on a connection of its own: its statements may wait on another replica's (the
 * lock, an index built on a large table) far longer than the pools' QUERY_TIMEOUT_MS allows.
 */
async function createSchema(connectionString: string): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: SCHEMA_QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of SCHEMA) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    // Ending the session rolls back a transaction left open by a failed statement.
    await client.end();
  }
}

function openPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  // An idle client's error (the server restarted) would otherwise be thrown as an uncaught exception.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * `text` as PostgreSQL can hold it, each NUL and lone surrogate as U+FFFD: a text column takes no 0x00 byte and
 * jsonb no "\u0000" nor a lone "\ud800". Left in, one such character (an API client's tool name, an answer's
 * field name) failed its whole batch's INSERT, and the feed, retrying its oldest pending entries first, failed
 * on it for ever: no later event reached PostgreSQL. The Redis Stream keeps the event as it was.
 */
function holdable(text: string): string {
  return text.replaceAll('\u0000', '\ufffd').toWellFormed();
}

/** JSON.stringify's replacer: each object's keys and each string value made holdable. */
function holdableJson(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return holdable(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [holdable(key), inner]));
}

/** Row sequence numbers are bigserial: at most 2^63 - 1. */
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * A row's `seq`, as list() writes it: a bigint. A cursor of the `<at>/<seq>` form PostgreSQL gave out while it
 * paged by time is refused with the rest: continued in `seq` order it would skip or repeat events unsaid.
 */
function isRowSeq(position: string): boolean {
  return /^\d{1,19}$/.test(position) && BigInt(position) <= BIGINT_MAX;
}

function wrap(what: string, cause: unknown): AuditError {
  return new AuditError('postgres_error', `PostgreSQL: could not ${what}`, { cause });
}
