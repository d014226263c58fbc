// Socket Mode's part of start-up, for the bot as a child process. A SLACK_APP_TOKEN that Slack refuses
// (apps.connections.open answers invalid_auth: a revoked or mistyped app-level token) is a wrong setting like a
// refused SLACK_BOT_TOKEN: the README promises start-up stops "with a message naming it" and "exit code 2, like
// every wrong setting", not an uncaught WebAPIPlatformError's stack. And a SIGTERM while apps.connections.open
// gets no answer still ends the process inside Kubernetes' 30 s grace (README: "On SIGTERM a replica stops
// inside Kubernetes' default 30 s grace"), though start-up never finished and there is no running bot to stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackStandin, type AppTokenRefusal, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { exitWithin } from '../support/child-exit.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { BOT_TOKEN } from '../system/harness.js';
import { runCli } from '../system/child.js';

const APP_TOKEN = 'xapp-1-the-right-one';

describe('Socket Mode at start-up', { timeout: 45_000 }, () => {
  const prefix = uniquePrefix();
  let standin: SlackStandin;
  const releases: (() => void)[] = [];
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  });
  afterAll(async () => {
    for (const release of releases) release();
    await standin.close();
    await deleteUnder(prefix);
  });

  const env = (appToken: string): Record<string, string> => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: appToken,
    SLACK_API_URL: standin.apiUrl,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    PORT: '0',
  });

  it('stops start-up with exit code 2 and a message naming SLACK_APP_TOKEN, without a stack trace', async () => {
    const run = runCli(env('xapp-1-a-revoked-one'), [], 'compiled');
    const exit = await exitWithin(run, 30_000);
    expect(exit).toMatchObject({ code: 2 });
    expect(exit.stderr).toMatch(/SLACK_APP_TOKEN/);
    expect(exit.stderr).not.toMatch(/^\s+at /m);
  });

  // @slack/socket-mode 3.x gives up only on invalid_auth, not_authed and account_inactive; after these it asked
  // apps.connections.open again for ever (5 s, 10 s, 15 s… apart), so start-up never ended. Each names its fix.
  const refusals: { refusal: AppTokenRefusal; fix: RegExp }[] = [
    { refusal: 'token_revoked', fix: /new app-level token \(xapp-…\) with the connections:write scope/ },
    { refusal: 'token_expired', fix: /new app-level token \(xapp-…\) with the connections:write scope/ },
    { refusal: 'missing_scope', fix: /lacks the connections:write scope/ },
    { refusal: 'not_allowed_token_type', fix: /an app-level token \(xapp-…\), not a bot \(xoxb-\) or user/ },
  ];
  it.each(refusals)(
    'stops start-up with exit code 2 and the fix when Slack answers $refusal for the app-level token',
    async ({ refusal, fix }) => {
      standin.socketMode.refuseAppToken(refusal);
      try {
        const exit = await exitWithin(runCli(env(APP_TOKEN), [], 'compiled'), 30_000);
        expect(exit).toMatchObject({ code: 2 });
        expect(exit.stderr).toContain(
          `SLACK_APP_TOKEN: Slack refused it (apps.connections.open: ${refusal})`,
        );
        expect(exit.stderr).toMatch(fix);
        expect(exit.stderr).not.toMatch(/^\s+at /m);
      } finally {
        standin.socketMode.refuseAppToken(undefined);
      }
    },
  );

  it('exits within 30 s of a SIGTERM that comes while apps.connections.open gets no answer', async () => {
    const held = standin.holdNext('apps.connections.open');
    releases.push(() => held.release());
    const run = runCli(env(APP_TOKEN), [], 'compiled');
    await held.arrived;
    run.child.kill('SIGTERM');
    const exit = await exitWithin(run, 30_000);
    expect(exit).not.toHaveProperty('hung');
  });
});
