// LOG_LEVEL is checked before the logger is built: a wrong one stops the bot with the usual configuration line
// and exit code 2, not pino's bare Error and its stack; an empty one (Compose's unset) counts as info.
import { describe, expect, it } from 'vitest';
import { runCli } from '../system/child.js';

describe('LOG_LEVEL at start-up', { timeout: 30_000 }, () => {
  it('refuses an unknown level naming LOG_LEVEL and the levels', async () => {
    const { code, stderr } = await runCli({ LOG_LEVEL: 'verbose' }, [], 'compiled').done;
    expect(stderr).toBe(
      'elicit-relay: invalid configuration: LOG_LEVEL: "verbose" is not a log level. Use one of: fatal, error, warn, info, debug, trace, silent, or leave it unset for info.\n',
    );
    expect(code).toBe(2);
  });

  it('takes an empty one as unset and goes on to the next setting', async () => {
    const env = { LOG_LEVEL: '', REDIS_URL: 'redis://127.0.0.1:6379/abc' };
    const { code, stderr } = await runCli(env, [], 'compiled').done;
    expect(stderr).toMatch(/^elicit-relay: invalid configuration: REDIS_URL: /);
    expect(code).toBe(2);
  });
});
