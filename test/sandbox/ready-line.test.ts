// The sandbox's "elicit-relay is ready" line names the port of the page the person opens (PORT), not the bot's
// internal port that only the page's server talks to; the bot's own is there beside it, as `botPort`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

describe("the sandbox's ready line", () => {
  const prefix = uniquePrefix();
  const records: Record<string, unknown>[] = [];
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    const lines = { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) };
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: prefix,
      logger: createLogger('info', lines),
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await deleteUnder(prefix);
  });

  it('names the page’s port as `port`, and the bot’s internal one as `botPort`', () => {
    const ready = records.filter((record) => record.msg === 'elicit-relay is ready');
    const pagePort = Number(new URL(sandbox.url).port);

    expect(ready.map(({ port, botPort }) => ({ port, botPort }))).toEqual([
      { port: pagePort, botPort: sandbox.botPort },
    ]);
    expect(pagePort).not.toBe(sandbox.botPort);
  });
});
