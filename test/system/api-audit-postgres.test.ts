// The audit trail of a running bot with AUDIT_DATABASE_URL (PRODUCT "Automations contract", #16 item 9): two
// replicas, real Redis, the machine's real PostgreSQL (a database of this run's own, dropped afterwards) and the
// Slack stand-in. Every creation and end is a row; GET /api/v1/audit reads PostgreSQL (the Redis Stream is
// deleted before reading), oldest first, without the answer by default, filtered and paged by cursor.
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { createTestDatabase } from '../support/postgres.js';
import { apiOf, cardWith, type Api } from './api-support.js';
import { inputLabelled, openForm, startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-audit-pg-0123456789';
const OTHER = 'api-token-audit-pg-other-0123456789';
const SCHEMA = { type: 'object', properties: { reason: { type: 'string', title: 'Reason' } } };

interface Event {
  type: string;
  question?: string;
  client?: string;
  user?: string;
  answeredBy?: string;
  action?: string;
  reason?: string;
}

describe('the audit trail in PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let h: Harness;
  let api: Api;
  /** Listens on the test database for each row the bot inserts (a trigger of the test's own). */
  let listener: pg.Client;
  const inserted: string[] = [];
  let onInsert = (): void => undefined;
  const since = new Date().toISOString();

  beforeAll(async () => {
    db = await createTestDatabase();
    h = await startHarness({
      replicas: 2,
      env: { ELICIT_RELAY_API_TOKEN: TOKEN, OTHER_TOKEN: OTHER, AUDIT_DATABASE_URL: db.url },
      config: { api: { clients: { other: { token: '${OTHER_TOKEN}' } } } },
    });
    api = apiOf(h, TOKEN);
    listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    await listener.query(`CREATE FUNCTION notify_audit() RETURNS trigger AS $$
      BEGIN PERFORM pg_notify('audit_rows', NEW.type || ' ' || (NEW.event->>'question')); RETURN NEW; END
      $$ LANGUAGE plpgsql`);
    await listener.query(
      'CREATE TRIGGER audit_rows AFTER INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION notify_audit()',
    );
    listener.on('notification', (n) => {
      inserted.push(n.payload ?? '');
      onInsert();
    });
    await listener.query('LISTEN audit_rows');
  });
  afterAll(async () => {
    await listener.end();
    await h.close();
    await db.drop();
  });

  /** Resolves once PostgreSQL has a row `type` for question `id` (committed, so readable). */
  async function rowOf(type: string, id: string): Promise<void> {
    while (!inserted.includes(`${type} ${id}`)) {
      await new Promise<void>((resolve) => (onInsert = resolve));
    }
  }

  it('keeps every creation and end, read back from PostgreSQL oldest first, filtered, paged, without the answer', async () => {
    const asked = await api('POST', '/questions', {
      body: { message: 'Rotate the keys?', requestedSchema: SCHEMA, to: { user: 'U1' } },
    });
    const accepted = String(asked.body.id);
    const viewId = await openForm(h, 'U1', await cardWith(h, accepted));
    const values = { [inputLabelled(h, viewId, 'Reason')]: 'secret-rotation-plan' };
    expect((await h.drivers[1]?.submitView({ userId: 'U1', viewId, values }))?.status).toBe(200);
    await rowOf('question.ended', accepted);
    const other = await api('POST', '/questions', {
      token: OTHER,
      on: 1,
      body: { message: 'Restart the cache?', requestedSchema: SCHEMA, to: { user: 'U2' } },
    });
    const declined = String(other.body.id);
    await h.driver.clickButton({
      userId: 'U2',
      ...(await cardWith(h, declined)),
      actionId: 'elicit_decline',
    });
    await rowOf('question.ended', declined);

    // What follows can only come from PostgreSQL.
    const redis = new Redis(redisUrl());
    await redis.del(keys(h.prefix).auditEvents);
    redis.disconnect();

    const all = await api('GET', `/audit?since=${since}`, { on: 1 });
    expect(all.status).toBe(200);
    expect(JSON.stringify(all.body)).not.toContain('secret-rotation-plan');
    const events = all.body.events as Event[];
    expect(events).toMatchObject([
      { type: 'question.created', question: accepted, client: 'default', user: 'U1' },
      { type: 'question.ended', question: accepted, action: 'accept', reason: 'answered', answeredBy: 'U1' },
      { type: 'question.created', question: declined, client: 'other', user: 'U2' },
      { type: 'question.ended', question: declined, action: 'decline', reason: 'declined', answeredBy: 'U2' },
    ]);
    expect(all.body.cursor).toBeUndefined();

    expect(await pages(`/audit?since=${since}&limit=1`)).toEqual(events);
    const byClient = await api('GET', `/audit?since=${since}&client=other`);
    expect(byClient.body.events).toEqual(events.slice(2));
    const byUser = await api('GET', `/audit?since=${since}&user=U1`);
    expect(byUser.body.events).toEqual(events.slice(0, 2));
    const ownOnly = await api('GET', `/audit?since=${since}`, { token: OTHER });
    expect(ownOnly.body.events).toEqual(events.slice(2));
    const untilStart = await api('GET', `/audit?since=${since}&until=${since}`);
    expect(untilStart.body.events).toEqual([]);
  });

  /** Every event of `path`, following the cursor page by page. */
  async function pages(path: string): Promise<unknown[]> {
    const events: unknown[] = [];
    let page = await api('GET', path);
    for (;;) {
      events.push(...(page.body.events as unknown[]));
      if (typeof page.body.cursor !== 'string') return events;
      page = await api('GET', `${path}&cursor=${encodeURIComponent(page.body.cursor)}`);
    }
  }
});
