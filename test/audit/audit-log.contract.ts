// What every AuditLog does (the Redis Stream and PostgreSQL), run against both: order, time bounds, filters,
// cursors. Events are stamped around now, appended oldest first.
import { describe, expect, it } from 'vitest';
import { AuditError, type AuditEvent, type AuditLog, type AuditQuery } from '../../src/audit/index.js';

/**
 * Five events a second apart from `base` (a minute ago). Made when a contract suite is declared, not when this
 * module loads: with test files sharing a worker's modules, a module-level time was minutes old by the time a
 * later file ran, and the Redis log reads its stream only its 5-minute clock slack around `since`/`until`.
 */
function eventsAround(base: number): { at: (s: number) => string; EVENTS: AuditEvent[] } {
  const at = (s: number): string => new Date(base + s * 1000).toISOString();
  const EVENTS: AuditEvent[] = [
    { type: 'question.created', at: at(0), question: 'q1', server: 'deploy', user: 'U1', createdAt: at(0) },
    // Asked of a channel: no person, the channel kept as stored (it is no filter).
    {
      type: 'question.created',
      at: at(1),
      question: 'q2',
      client: 'ci',
      channel: 'C0DESK',
      createdAt: at(1),
    },
    {
      type: 'question.ended',
      at: at(2),
      question: 'q1',
      server: 'deploy',
      user: 'U1',
      action: 'accept',
      reason: 'answered',
      answeredBy: 'U2',
      createdAt: at(0),
      endedAt: at(2),
    },
    {
      type: 'call.created',
      at: at(3),
      call: 'c1',
      server: 'deploy',
      tool: 'ship',
      client: 'ci',
      user: 'U3',
      createdAt: at(3),
    },
    {
      type: 'webhook.gave_up',
      at: at(4),
      question: 'q2',
      client: 'ci',
      webhook: {
        deliveryId: 'dlv_1',
        url: 'https://ci.example.com/h',
        attempts: 30,
        code: 'bad_status',
        reason: '500',
      },
    },
  ];
  return { at, EVENTS };
}

const withoutId = ({ id: _id, ...event }: AuditEvent): AuditEvent => event;

async function all(log: AuditLog, query: AuditQuery): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = await log.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    events.push(...page.events);
    cursor = page.cursor;
    if (cursor === undefined) return events;
  }
  throw new Error('more than 20 pages');
}

export function auditLogContract(name: string, open: () => Promise<AuditLog>): void {
  describe(`${name} (AuditLog contract)`, () => {
    const { at, EVENTS } = eventsAround(Date.now() - 60_000);
    async function filled(): Promise<AuditLog> {
      const log = await open();
      for (const event of EVENTS) await log.append(event);
      return log;
    }

    it('lists nothing, and no cursor, when empty', async () => {
      expect(await (await open()).list({})).toEqual({ events: [] });
    });

    it('lists every event oldest first, as appended, each with an id', async () => {
      const { events, cursor } = await (await filled()).list({});
      expect(cursor).toBeUndefined();
      expect(events.map(withoutId)).toEqual(EVENTS);
      expect(new Set(events.map((e) => e.id)).size).toBe(EVENTS.length);
    });

    it('selects by time: since inclusive, until exclusive', async () => {
      const log = await filled();
      const since = Date.parse(at(1));
      const until = Date.parse(at(3));
      expect((await log.list({ since, until })).events.map((e) => e.at)).toEqual([at(1), at(2)]);
      expect((await log.list({ since: Date.parse(at(4)) + 1 })).events).toEqual([]);
    });

    it('filters by server, by client, and by user as the one who ran it or answered', async () => {
      const log = await filled();
      const types = async (q: AuditQuery) =>
        (await log.list(q)).events.map((e) => `${e.type} ${e.question ?? e.call}`);
      expect(await types({ server: 'deploy' })).toEqual([
        'question.created q1',
        'question.ended q1',
        'call.created c1',
      ]);
      expect(await types({ client: 'ci' })).toEqual([
        'question.created q2',
        'call.created c1',
        'webhook.gave_up q2',
      ]);
      expect(await types({ user: 'U2' })).toEqual(['question.ended q1']);
      expect(await types({ user: 'U1', server: 'deploy' })).toEqual([
        'question.created q1',
        'question.ended q1',
      ]);
      expect(await types({ server: 'nope' })).toEqual([]);
    });

    it('pages with an opaque cursor: every event once, in order, then no cursor', async () => {
      const log = await filled();
      const first = await log.list({ limit: 2 });
      expect(first.events).toHaveLength(2);
      expect(first.cursor).toEqual(expect.any(String));
      expect((await all(log, { limit: 2 })).map(withoutId)).toEqual(EVENTS);
      expect(
        (await all(log, { limit: 1, client: 'ci', since: Date.parse(at(2)) })).map((e) => e.type),
      ).toEqual(['call.created', 'webhook.gave_up']);
    });

    it('pages through events of one millisecond past the ninth: every event once, in the order appended', async () => {
      const log = await open();
      const same = Array.from({ length: 12 }, (_, i): AuditEvent => {
        const question = `q${i + 1}`;
        return { type: 'question.created', at: at(5), question, client: 'ci', createdAt: at(5) };
      });
      for (const event of same) await log.append(event);
      const listed = await all(log, { limit: 5 });
      expect(listed.map((e) => (e.type === 'question.created' ? e.question : e.type))).toEqual(
        same.map((e) => (e.type === 'question.created' ? e.question : e.type)),
      );
    });

    it('gives a client that followed the trail to its end an event stored late with an earlier time, next', async () => {
      const log = await filled();
      const pages = [await log.list({ limit: 2 })];
      for (let page = pages[0]; page?.cursor !== undefined;) {
        page = await log.list({ limit: 2, cursor: page.cursor });
        pages.push(page);
      }
      const lastFull = pages.at(-2)?.cursor;
      const lastId = pages.at(-1)?.events.at(-1)?.id;
      expect(pages.flatMap((p) => p.events).map(withoutId)).toEqual(EVENTS);
      // Stamped before events already listed, as a backlog is once PostgreSQL answers again.
      const late: AuditEvent = { type: 'question.created', at: at(1), question: 'late', client: 'ci' };
      await log.append(late);
      const from = (cursor: string | undefined) =>
        log.list({ ...(cursor === undefined ? {} : { cursor }) }).then((p) => p.events.map(withoutId));
      expect(await from(lastId)).toEqual([late]);
      expect(await from(lastFull)).toEqual([EVENTS[4], late]);
      const since = Date.parse(at(1));
      const selected = await log.list({
        since,
        client: 'ci',
        ...(lastId === undefined ? {} : { cursor: lastId }),
      });
      expect(selected.events.map(withoutId)).toEqual([late]);
    });

    it('refuses a cursor it did not give out', async () => {
      const log = await filled();
      await expect(log.list({ cursor: 'bm9wZQ' })).rejects.toBeInstanceOf(AuditError);
      await expect(log.list({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: 'bad_cursor' });
    });

    // Cursors of either log's kind ("r:" a stream id, "p:" a row's sequence) whose position neither
    // log could have given out: refused as bad cursors (the API's 400), never sent to the query (its 500).
    it.each([
      'not-a-stream-id',
      '12-x',
      '1-2-3',
      '',
      '18446744073709551616-0',
      '18446744073709551615-18446744073709551615',
      'not-a-time/1',
      '2026-13-45T00:00:00.000Z/1',
      '2026-01-01T00:00:00.000Z/x',
      '2026-01-01T00:00:00.000Z/9223372036854775808',
      '2026-01-01/1',
    ])('refuses a cursor of either kind holding the position %j', async (position) => {
      const log = await filled();
      for (const kind of ['r', 'p'] as const) {
        const cursor = Buffer.from(`${kind}:${position}`).toString('base64url');
        await expect(log.list({ cursor })).rejects.toMatchObject({ name: 'AuditError', code: 'bad_cursor' });
      }
    });

    it('takes back every cursor it gave out, ids included', async () => {
      const log = await filled();
      const { events } = await log.list({});
      for (const [i, event] of events.entries()) {
        const after = await log.list({ ...(event.id === undefined ? {} : { cursor: event.id }) });
        expect(after.events.map(withoutId)).toEqual(EVENTS.slice(i + 1));
      }
    });
  });
}
