// The audit trail in PostgreSQL (AUDIT_DATABASE_URL), for deployments that keep years of it: one row per event
// with the filtered fields as columns and the whole event as jsonb. The table and its indexes are created at
// start, idempotently, under an advisory lock so replicas starting together do not race on CREATE.
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
  'CREATE INDEX IF NOT EXISTS audit_events_at ON audit_events (at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_server ON audit_events (server, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_user ON audit_events (user_id, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_answered_by ON audit_events (answered_by, at, seq)',
  'CREATE INDEX IF NOT EXISTS audit_events_client ON audit_events (client, at, seq)',
];

/** Connections kept per replica: appends are single short INSERTs. */
const POOL_MAX = 4;

export class PostgresAuditLog implements AuditLog {
  private constructor(private readonly pool: pg.Pool) {}

  /** Connects and creates the table and indexes when missing; rejects with AuditError 'postgres_error'. */
  static async open(connectionString: string): Promise<PostgresAuditLog> {
    const pool = new pg.Pool({ connectionString, max: POOL_MAX });
    // An idle client's error (the server restarted) would otherwise be thrown as an uncaught exception.
    pool.on('error', () => undefined);
    const log = new PostgresAuditLog(pool);
    try {
      await log.createSchema();
    } catch (err) {
      await pool.end();
      throw wrap('set up the audit table', err);
    }
    return log;
  }

  async append(event: AuditEvent): Promise<void> {
    const text = `INSERT INTO audit_events (at, type, server, user_id, answered_by, client, event)
                  VALUES ($1, $2, $3, $4, $5, $6, $7)`;
    const { at, type, server, user, answeredBy, client } = event;
    const values = [
      at,
      type,
      server ?? null,
      user ?? null,
      answeredBy ?? null,
      client ?? null,
      JSON.stringify(event),
    ];
    await this.pool.query(text, values).catch((err: unknown) => {
      throw wrap('record an audit event', err);
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
    if (query.server !== undefined) add((n) => `server = ${n}`, query.server);
    if (query.client !== undefined) add((n) => `client = ${n}`, query.client);
    if (query.user !== undefined) add((n) => `(user_id = ${n} OR answered_by = ${n})`, query.user);
    if (query.cursor !== undefined) {
      const [at, seq] = decodeCursor('p', query.cursor, isRowPosition).split('/');
      values.push(at, seq);
      where.push(`(at, seq) > ($${values.length - 1}::timestamptz, $${values.length}::bigint)`);
    }
    values.push(limit);
    const sql = `SELECT seq::text AS seq, at, event::text AS event FROM audit_events
                 ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at, seq LIMIT $${values.length}`;
    const result = await this.pool
      .query<{ seq: string; at: Date; event: string }>(sql, values)
      .catch((err: unknown) => {
        throw wrap('list audit events', err);
      });
    const events = result.rows.flatMap((row) => {
      const event = parseEvent(row.event);
      return event ? [{ ...event, id: encodeCursor('p', `${row.at.toISOString()}/${row.seq}`) }] : [];
    });
    const last = result.rows.at(-1);
    const cursor =
      last && result.rows.length === limit
        ? encodeCursor('p', `${last.at.toISOString()}/${last.seq}`)
        : undefined;
    return cursor === undefined ? { events } : { events, cursor };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async createSchema(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      for (const statement of SCHEMA) await client.query(statement);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}

/** Row sequence numbers are bigserial: at most 2^63 - 1. */
const BIGINT_MAX = 2n ** 63n - 1n;

/** `<at as toISOString()>/<seq>`, as list() writes it: a time that reads back the same, and a bigint. */
function isRowPosition(position: string): boolean {
  const parts = /^([^/]+)\/(\d{1,19})$/.exec(position);
  if (!parts?.[1] || !parts[2]) return false;
  const at = new Date(parts[1]);
  return !Number.isNaN(at.getTime()) && at.toISOString() === parts[1] && BigInt(parts[2]) <= BIGINT_MAX;
}

function wrap(what: string, cause: unknown): AuditError {
  return new AuditError('postgres_error', `PostgreSQL: could not ${what}`, { cause });
}
