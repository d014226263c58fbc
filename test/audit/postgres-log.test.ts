import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresAuditLog } from '../../src/audit/index.js';
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

/** Each contract test starts from an empty table in the run's own database. */
async function openLog(): Promise<PostgresAuditLog> {
  const log = await PostgresAuditLog.open(db.url);
  logs.push(log);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('TRUNCATE audit_events');
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
      'audit_events_user',
    ]);
  });

  it('refuses to start without a reachable database, with a typed error', async () => {
    await expect(PostgresAuditLog.open('postgres://postgres@127.0.0.1:1/none')).rejects.toMatchObject({
      code: 'postgres_error',
    });
  });
});
