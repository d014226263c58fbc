import { afterEach, describe, expect, it } from 'vitest';
import { RedisAuditLog, type AuditEvent } from '../../src/audit/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { auditLogContract } from './audit-log.contract.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function openLog(clock = { now: () => Date.now() }, retentionMs?: number): Promise<RedisAuditLog> {
  const prefix = uniquePrefix();
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

  it('keeps what a configured retention allows', async () => {
    let now = Date.now();
    const log = await openLog({ now: () => now }, 60_000);
    await log.append({ type: 'call.created', at: new Date(now).toISOString(), call: 'a' });
    now += 61_000;
    await log.append({ type: 'call.created', at: new Date(now).toISOString(), call: 'b' });
    expect((await log.list({})).events.map((e) => e.call)).toEqual(['b']);
  });
});
