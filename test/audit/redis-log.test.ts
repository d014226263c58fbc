import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisAuditLog, type AuditEvent } from '../../src/audit/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { monitored, recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { auditLogContract } from './audit-log.contract.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function openLog(
  clock = { now: () => Date.now() },
  retentionMs?: number,
  prefix = uniquePrefix(),
): Promise<RedisAuditLog> {
  const log = await RedisAuditLog.open({
    url: redisUrl(),
    prefix,
    logger: recordingLogger(),
    clock,
    ...(retentionMs === undefined ? {} : { retentionMs }),
  });
  opened.push(async () => {
    await log.close();
    await deleteUnder(prefix);
  });
  return log;
}

auditLogContract('Redis Stream audit log', () => openLog());

describe('the Redis Stream audit log', () => {
  it('trims events older than the retention when it appends (30 days by default)', async () => {
    let now = Date.now();
    const log = await openLog({ now: () => now });
    const event = (question: string): AuditEvent => ({
      type: 'question.created',
      at: new Date(now).toISOString(),
      question,
    });
    await log.append(event('old'));
    now += 29 * 86_400_000;
    await log.append(event('kept'));
    expect((await log.list({})).events.map((e) => e.question)).toEqual(['old', 'kept']);
    now += 2 * 86_400_000;
    await log.append(event('new'));
    expect((await log.list({})).events.map((e) => e.question)).toEqual(['kept', 'new']);
  });

  it('writes the appends made in one turn of the event loop as one batch, in order', async () => {
    const prefix = uniquePrefix();
    const stream = `${prefix}:audit:events`;
    const log = await openLog(undefined, undefined, prefix);
    const event = (call: string): AuditEvent => ({
      type: 'call.created',
      at: new Date().toISOString(),
      call,
    });
    // MONITOR shows each command Redis runs, a script's own (XINFO) included.
    const probe = new Redis(redisUrl());
    opened.push(() => Promise.resolve(probe.disconnect()));
    const seen = await monitored(probe, async () => {
      await log.append(event('first'));
      await Promise.all(['a', 'b', 'c', 'd', 'e'].map((call) => log.append(event(call))));
    });
    const streamReads = seen.filter(({ args }) => args[0]?.toLowerCase() === 'xinfo' && args[2] === stream);
    // The first append found the stream empty (no read); the five others read its last id once, together.
    expect(streamReads).toHaveLength(1);
    expect((await log.list({})).events.map((e) => e.call)).toEqual(['first', 'a', 'b', 'c', 'd', 'e']);
  });

  it('keeps what a configured retention allows', async () => {
    let now = Date.now();
    const log = await openLog({ now: () => now }, 60_000);
    await log.append({ type: 'call.created', at: new Date(now).toISOString(), call: 'a' });
    now += 61_000;
    await log.append({ type: 'call.created', at: new Date(now).toISOString(), call: 'b' });
    expect((await log.list({})).events.map((e) => e.call)).toEqual(['b']);
  });
});
