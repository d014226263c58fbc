import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresAuditLog, type AuditEvent } from '../../src/audit/index.js';
import { createTestDatabase } from '../support/postgres.js';
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

  it('refuses to start without a reachable database, with a typed error', async () => {
    await expect(PostgresAuditLog.open('postgres://postgres@127.0.0.1:1/none')).rejects.toMatchObject({
      code: 'postgres_error',
    });
  });
});
