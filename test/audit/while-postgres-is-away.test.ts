// The audit trail with AUDIT_DATABASE_URL set, as openAudit builds it (the Redis Stream written, PostgreSQL fed
// from it and read), while PostgreSQL goes away and comes back. PostgreSQL is the machine's real server behind a
// TCP forwarder the test cuts (connections refused, as during a restart) or blackholes (nothing answers, as in a
// network partition), in a database of the run's own; Redis is real, under the test's own prefix.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_MS, openAudit, RedisAuditLog } from '../../src/audit/index.js';
import { systemClock } from '../../src/clock.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { createTestDatabase } from '../support/postgres.js';
import { question } from '../support/question.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { until } from '../support/until.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** The run's own database, reached through a forwarder the test controls (`url`) and directly (`direct`). */
async function databaseBehindProxy(): Promise<{ url: string; direct: string; proxy: TcpProxy }> {
  const db = await createTestDatabase();
  opened.push(() => db.drop());
  const proxy = await startProxy(db.url);
  opened.push(() => proxy.close());
  const url = new URL(db.url);
  url.port = new URL(proxy.url).port;
  return { url: url.toString(), direct: db.url, proxy };
}

/**
 * The audit as the bot opens it with a database; `stream` reads its Redis Stream directly. Given a `prefix`, a
 * further replica of a deployment already opened under it.
 */
async function auditWithDatabase(databaseUrl: string, prefix = uniquePrefix()) {
  opened.push(() => deleteUnder(prefix));
  const errors: object[] = [];
  const logger = { ...recordingLogger(), error: (obj: object) => void errors.push(obj) };
  const audit = await openAudit(
    { content: 'none', retentionMs: DEFAULT_RETENTION_MS, databaseUrl },
    { redis: { url: redisUrl(), prefix }, logger, clock: systemClock },
  );
  opened.push(() => audit.close());
  const stream = await RedisAuditLog.open({ url: redisUrl(), prefix, logger, clock: systemClock });
  opened.push(() => stream.close());
  return { audit, stream, errors, prefix };
}

const asked = question({ id: 'Q-during-outage', client: 'ci', createdAt: Date.now() });
const later = question({ id: 'Q-after-outage', client: 'ci', createdAt: Date.now() });

describe('the audit trail kept in PostgreSQL', () => {
  it('still lists, once PostgreSQL is back, an event recorded while it was restarting', async () => {
    const { url, proxy } = await databaseBehindProxy();
    const { audit, stream } = await auditWithDatabase(url);
    await proxy.cut();
    await audit.questionCreated(asked);
    await proxy.restore();
    await audit.questionCreated(later);
    // The Redis Stream has both: the event was not lost by the bot, only by the log that is read.
    expect((await stream.list({})).events.map((e) => e.question)).toEqual([asked.id, later.id]);
    await until('both events are listed from PostgreSQL', 5_000, async () => {
      const listed = (await audit.list({})).events.map((e) => e.question);
      return listed.length === 2;
    }).catch(() => undefined);
    expect((await audit.list({})).events.map((e) => e.question)).toEqual([asked.id, later.id]);
  });

  it('gives a client following the trail the event a replica stores late, once PostgreSQL answers it again', async () => {
    const { url, direct, proxy } = await databaseBehindProxy();
    const cutOff = await auditWithDatabase(url);
    const healthy = await auditWithDatabase(direct, cutOff.prefix);
    const first = question({ id: 'Q-first', client: 'ci', createdAt: Date.now() });
    await healthy.audit.questionCreated(first);
    await proxy.cut();
    await cutOff.audit.questionCreated(asked);
    await healthy.audit.questionCreated(later);
    // The client pages to the end while `asked` is pending on the replica cut off; it stays at the last event.
    const seen = (await healthy.audit.list({})).events;
    expect(seen.map((e) => e.question)).toEqual([first.id, later.id]);
    const lastId = seen.at(-1)?.id;
    await proxy.restore();
    await until('the replica cut off stores its pending event', 10_000, async () => {
      const listed = await healthy.audit.list({});
      return listed.events.some((e) => e.question === asked.id);
    });
    const next = await healthy.audit.list(lastId === undefined ? {} : { cursor: lastId });
    expect(next.events.map((e) => e.question)).toEqual([asked.id]);
  });

  it('settles, within 10 s, an append and a list that PostgreSQL does not answer (a partition), the append reported', async () => {
    const { url, proxy } = await databaseBehindProxy();
    const { audit, errors } = await auditWithDatabase(url);
    // Stopping the forwarder first ends the silent connections, so the cleanup's close does not wait on them.
    opened.push(() => proxy.close());
    // Four events at once fill the pool (4 connections); then every pooled connection goes silent: no FIN, no RST.
    const before = [1, 2, 3, 4].map((n) =>
      question({ id: `Q-before-${n}`, client: 'ci', createdAt: Date.now() }),
    );
    await Promise.all(before.map((q) => audit.questionCreated(q)));
    proxy.blackhole();
    const within10s = (work: Promise<unknown>) =>
      Promise.race([
        work.then(
          () => 'settled',
          () => 'settled',
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000)),
      ]);
    const [append, list] = await Promise.all([
      within10s(audit.questionCreated(asked)),
      within10s(audit.list({})),
    ]);
    expect({ append, list }).toEqual({ append: 'settled', list: 'settled' });
    expect(errors).toHaveLength(1);
  }, 30_000);
});
