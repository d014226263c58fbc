// A callback URL's secret stays out of the logs when its delivery gives up. src/webhooks/queue.ts logs only the
// receiver's origin, and main.ts hands the same give-up to the audit (onGaveUp → Audit.webhookGaveUp), whose
// event is also a log line: that line names the origin too, while the stored audit event keeps the whole URL
// for the client that gave it. Wired here as src/main.ts wires them (one logger, onGaveUp = audit.webhookGaveUp).
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { Audit } from '../../src/audit/audit.js';
import type { AuditEvent, AuditLog } from '../../src/audit/types.js';
import { Webhooks, parseAllowList } from '../../src/webhooks/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { captureLogs } from '../slack/log-capture.js';

const HOOK_SECRET = 'hook-secret-osprey-5521';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** An audit log in memory: what the audit stores. */
function memoryLog(): AuditLog & { events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  return {
    events,
    append: (event) => {
      events.push(event);
      return Promise.resolve();
    },
    list: () => Promise.resolve({ events }),
    close: () => Promise.resolve(),
  };
}

describe('a webhook that gives up', () => {
  it("keeps the callback URL's secret (path/query) out of every log line, and whole in the audit", async () => {
    const logs = captureLogs('info');
    const prefix = uniquePrefix();
    closing.push(() => deleteKeysUnder(redisUrl(), prefix));
    const stored = memoryLog();
    const audit = new Audit({ logs: [stored], reader: stored, clock: systemClock, logger: logs.logger });
    const parsed = parseAllowList('ci.example.com');
    if ('bad' in parsed) throw new Error(parsed.bad);
    const hooks = await Webhooks.open({
      url: redisUrl(),
      prefix,
      secret: 'whsec-audit-0123456789',
      allowed: parsed.hosts,
      logger: logs.logger,
      clock: systemClock,
      onGaveUp: (gaveUp) => audit.webhookGaveUp(gaveUp),
    });
    closing.push(() => hooks.close());
    await hooks.start();
    // A host the allow-list no longer names: a final refusal, given up at the first attempt.
    const url = `https://hooks.example.org/callback?token=${HOOK_SECRET}`;
    await hooks.enqueue({ type: 'question.ended', resourceId: 'q-audit-1', url, body: {}, client: 'ci' });
    await logs.waitFor((line) => line.msg === 'webhook delivery gave up');
    const line = await logs.waitFor((l) => l.msg === 'audit event');
    await audit.settle();
    const leaks = logs.lines.map((l) => JSON.stringify(l)).filter((text) => text.includes(HOOK_SECRET));
    expect(leaks, "no log line may carry the callback URL's secret").toEqual([]);
    expect(line).toMatchObject({ audit: { webhook: { url: 'https://hooks.example.org' } } });
    expect(stored.events).toMatchObject([{ type: 'webhook.gave_up', webhook: { url } }]);
  });
});
