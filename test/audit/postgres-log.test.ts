import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresAuditLog, type AuditEvent, type AuditPage } from '../../src/audit/index.js';
import { WRITE_TURN_LOCK } from '../../src/audit/postgres-log.js';
import { createTestDatabase } from '../support/postgres.js';
import { until } from '../support/until.js';
import { auditLogContract } from './audit-log.contract.js';

let db: { url: string; drop: () => Promise<void> };
const logs: PostgresAuditLog[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(logs.map((log) => log.close()));
  await db.drop();
});

/** Each contract test starts from an empty table in the run's own database, numbering its rows from 1. */
async function openLog(): Promise<PostgresAuditLog> {
  const log = await PostgresAuditLog.open(db.url);
  logs.push(log);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('TRUNCATE audit_events RESTART IDENTITY');
  await client.end();
  return log;
}

auditLogContract('PostgreSQL audit log', openLog);

describe('the PostgreSQL audit log', () => {
  it('creates its table and indexes at start, once, however many replicas start together', async () => {
    logs.push(...(await Promise.all([1, 2, 3].map(() => PostgresAuditLog.open(db.url)))));
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const indexes = await client.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'audit_events' ORDER BY indexname",
    );
    await client.end();
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      'audit_events_answered_by',
      'audit_events_at',
      'audit_events_client',
      'audit_events_pkey',
      'audit_events_server',
      'audit_events_stream_id',
      'audit_events_user',
    ]);
  });

  it('stores a stream entry once, however many times it is stored (a retry, a claim after a crash)', async () => {
    const log = await openLog();
    const event = (question: string) => ({
      type: 'question.created' as const,
      at: new Date().toISOString(),
      question,
    });
    await log.store([{ streamId: '1-0', event: event('a') }]);
    await log.store([
      { streamId: '1-0', event: event('a') },
      { streamId: '2-0', event: event('b') },
    ]);
    await log.store([{ streamId: '2-0', event: event('b') }]);
    expect((await log.list({})).events.map((e) => e.question)).toEqual(['a', 'b']);
  });

  it('adds stream ids to a table made before them, keeping its rows', async () => {
    const old = await createTestDatabase();
    const client = new pg.Client({ connectionString: old.url });
    try {
      await client.connect();
      await client.query(`CREATE TABLE audit_events (
        seq bigserial PRIMARY KEY, at timestamptz NOT NULL, type text NOT NULL, server text, user_id text,
        answered_by text, client text, event jsonb NOT NULL)`);
      const event: AuditEvent = {
        type: 'question.created',
        at: new Date().toISOString(),
        question: 'before',
      };
      await client.query('INSERT INTO audit_events (at, type, event) VALUES ($1, $2, $3)', [
        event.at,
        event.type,
        JSON.stringify(event),
      ]);
      const log = await PostgresAuditLog.open(old.url);
      logs.push(log);
      await log.store([{ streamId: '1-0', event: { ...event, question: 'after' } }]);
      await log.store([{ streamId: '1-0', event: { ...event, question: 'after' } }]);
      expect((await log.list({})).events.map((e) => e.question)).toEqual(['before', 'after']);
      const ids = await client.query<{ stream_id: string | null }>(
        'SELECT stream_id FROM audit_events ORDER BY seq',
      );
      expect(ids.rows).toEqual([{ stream_id: null }, { stream_id: '1-0' }]);
    } finally {
      await client.end();
      await old.drop();
    }
  });

  it('gives a client that paged to the end a backlog the feed stores late, with earlier times, in its next page', async () => {
    const log = await openLog();
    const now = Date.now();
    const created = (question: string, at: number): AuditEvent => ({
      type: 'question.created',
      at: new Date(at).toISOString(),
      question,
    });
    await log.store([{ streamId: '3-0', event: created('on time', now) }]);
    const tail = new Tail(log);
    expect(await tail.next()).toEqual(['on time']);
    // Entries pending on a replica while PostgreSQL was away, stored once it answers: recorded a minute earlier.
    await log.store([
      { streamId: '1-0', event: created('backlog 1', now - 60_000) },
      { streamId: '2-0', event: created('backlog 2', now - 59_000) },
    ]);
    expect(await tail.next()).toEqual(['backlog 1', 'backlog 2']);
    expect(await tail.next()).toEqual([]);
  });

  it('lists no row stored behind a writer still in its INSERT: the tail gets both once it commits', async () => {
    const log = await openLog();
    const created = (question: string): AuditEvent => ({
      type: 'question.created',
      at: new Date().toISOString(),
      question,
    });
    await log.store([{ streamId: '1-0', event: created('first') }]);
    const tail = new Tail(log);
    expect(await tail.next()).toEqual(['first']);
    // Another replica's INSERT, its row's seq drawn, not yet committed.
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [WRITE_TURN_LOCK]);
      const second = created('second');
      await other.query("INSERT INTO audit_events (stream_id, at, type, event) VALUES ('2-0', $1, $2, $3)", [
        second.at,
        second.type,
        JSON.stringify(second),
      ]);
      let settled = false;
      const third = log.store([{ streamId: '3-0', event: created('third') }]).finally(() => {
        settled = true;
      });
      await until(
        'the store waits its turn (or is done)',
        5_000,
        async () => settled || (await waitsForTurn(other)),
      );
      const whileOpen = await tail.next();
      await other.query('COMMIT');
      await third;
      expect([...whileOpen, ...(await tail.next())]).toEqual(['second', 'third']);
    } finally {
      await other.end();
    }
  });

  it('refuses a cursor of the (at, seq) form it gave out while it paged by time', async () => {
    const log = await openLog();
    await log.append({ type: 'question.created', at: new Date().toISOString(), question: 'q' });
    const cursor = Buffer.from('p:2026-01-01T00:00:00.000Z/1').toString('base64url');
    await expect(log.list({ cursor })).rejects.toMatchObject({ name: 'AuditError', code: 'bad_cursor' });
  });

  it('refuses to start without a reachable database, with a typed error', async () => {
    await expect(PostgresAuditLog.open('postgres://postgres@127.0.0.1:1/none')).rejects.toMatchObject({
      code: 'postgres_error',
    });
  });
});

/** A client following the trail: each call lists from the last event it was given (its `id`). */
class Tail {
  private after: string | undefined;

  constructor(private readonly log: PostgresAuditLog) {}

  async next(): Promise<(string | undefined)[]> {
    const page: AuditPage = await this.log.list(this.after === undefined ? {} : { cursor: this.after });
    this.after = page.events.at(-1)?.id ?? this.after;
    return page.events.map((e) => e.question);
  }
}

/** Whether a session of `client`'s database waits for the audit's write turn. */
async function waitsForTurn(client: pg.Client): Promise<boolean> {
  const waiting = await client.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND objid = $1
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [WRITE_TURN_LOCK],
  );
  return waiting.rows[0]?.n !== '0';
}
