// Text PostgreSQL cannot hold reaching the audit trail: a NUL (jsonb has no \u0000, text columns no 0x00 byte)
// or a lone surrogate (jsonb refuses "\ud800"), e.g. in the tool name an API client sends to POST /api/v1/calls
// (any string of 1 to 200 characters), or in an answer's field names under `audit.content`. One such event
// failed the INSERT of its whole batch, and the feed's retry pass, which stores the oldest pending entries
// first, failed on it for ever: no later event reached PostgreSQL, which the API lists from. Real PostgreSQL in
// a database of the run's own; real Redis under the test's own prefix.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_MS, PostgresAuditLog, openAudit, type AuditEvent } from '../../src/audit/index.js';
import { systemClock } from '../../src/clock.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { createTestDatabase } from '../support/postgres.js';
import { question } from '../support/question.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function database(): Promise<string> {
  const db = await createTestDatabase();
  opened.push(() => db.drop());
  return db.url;
}

const NUL_TOOL = 'deploy\u0000--force';
const LONE_SURROGATE_TOOL = 'ship\ud800it';

describe('audit events with text PostgreSQL cannot hold', () => {
  it('are stored with U+FFFD in its place, in the jsonb event and the filtered columns alike', async () => {
    const log = await PostgresAuditLog.open(await database());
    opened.push(() => log.close());
    const at = new Date().toISOString();
    const events: AuditEvent[] = [
      { type: 'call.created', at, call: 'c1', server: 'deploy', tool: NUL_TOOL, client: 'ci\u0000x' },
      { type: 'call.created', at, call: 'c2', server: 'deploy', tool: LONE_SURROGATE_TOOL, client: 'ci' },
      {
        type: 'question.ended',
        at,
        question: 'q1',
        client: 'ci',
        action: 'accept',
        fields: ['a\u0000b', '\udc00'],
        content: { 'why\u0000': 'because\ud83d', list: ['\u0000', '😀 ok'] },
      },
    ];
    await log.store(events.map((event, i) => ({ streamId: `${i + 1}-0`, event })));
    const listed = (await log.list({})).events.map(({ id: _id, ...event }) => event);
    expect(listed).toEqual([
      { ...events[0], tool: 'deploy\ufffd--force', client: 'ci\ufffdx' },
      { ...events[1], tool: 'ship\ufffdit' },
      {
        ...events[2],
        fields: ['a\ufffdb', '\ufffd'],
        content: { 'why\ufffd': 'because\ufffd', list: ['\ufffd', '😀 ok'] },
      },
    ]);
    expect((await log.list({ client: 'ci\ufffdx' })).events.map((e) => e.call)).toEqual(['c1']);
    // A filter with a NUL (GET /api/v1/audit?client=ci%00x) reads as the column was written, not a failed query.
    expect((await log.list({ client: 'ci\u0000x' })).events.map((e) => e.call)).toEqual(['c1']);
    expect((await log.list({ server: '\u0000', user: '\ud800' })).events).toEqual([]);
  });

  it('do not stop the events after them from reaching PostgreSQL (an API call naming a tool with a NUL)', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const errors: object[] = [];
    const logger = { ...recordingLogger(), error: (obj: object) => void errors.push(obj) };
    const audit = await openAudit(
      { content: 'none', retentionMs: DEFAULT_RETENTION_MS, databaseUrl: await database() },
      { redis: { url: redisUrl(), prefix }, logger, clock: systemClock },
    );
    opened.push(() => audit.close());
    const source = { kind: 'api' as const, client: 'ci', user: 'U1' };
    const call = { server: 'deploy', createdAt: Date.now() };
    // Each record resolves once the feed has taken its batch: stored, or reported and left pending.
    await audit.callCreated({ ...call, id: 'c-nul', tool: NUL_TOOL }, source);
    await audit.callCreated({ ...call, id: 'c-surrogate', tool: LONE_SURROGATE_TOOL }, source);
    await audit.questionCreated(question({ id: 'Q-after', client: 'ci', createdAt: Date.now() }));
    const listed = (await audit.list({})).events;
    expect(listed.map((e) => e.call ?? e.question)).toEqual(['c-nul', 'c-surrogate', 'Q-after']);
    expect(errors).toEqual([]);
  });
});
