// REDIS_URL's database: a path that is not an index stops start-up as a wrong setting (exit 2), and an index the
// server does not have (ioredis only emits SELECT's refusal and carries on in database 0) as a Redis refusal
// naming REDIS_URL (exit 1), like the other refusals of test/topology/refusals.test.ts.
import { describe, expect, it } from 'vitest';
import { refusedDatabase } from '../../src/redis/diagnose.js';
import { redisUrl } from '../setup/context.js';
import { freePort, runCli } from '../system/child.js';

/** The test Redis's URL selecting `path` (e.g. "/99"). */
function withDatabase(path: string): string {
  const url = new URL(redisUrl());
  url.pathname = path;
  return url.href;
}

function startBot(REDIS_URL: string) {
  const env = { SLACK_BOT_TOKEN: 'xoxb-t', SLACK_SIGNING_SECRET: 's', REDIS_URL, PORT: '0' };
  return runCli({ ...env, SLACK_API_URL: 'http://127.0.0.1:9/api/' }, [], 'compiled').done;
}

describe("REDIS_URL's database at start-up", { timeout: 45_000 }, () => {
  it('refuses a database the server does not have, naming REDIS_URL', async () => {
    const { code, stderr } = await startBot(withDatabase('/99'));
    expect(stderr).toMatch(
      /REDIS_URL: the Redis at redis:\/\/\S+\/99 has no database 99 \(ERR DB index is out of range\)/,
    );
    expect(stderr).toContain('`databases` setting');
    expect(stderr).not.toMatch(/ReplyError|^\s+at /m);
    expect(code).toBe(1);
  });

  it('refuses a path that is not an index as a wrong setting', async () => {
    const { code, stderr } = await startBot(withDatabase('/abc'));
    expect(stderr).toContain('invalid configuration: REDIS_URL:');
    expect(stderr).not.toMatch(/ReplyError|select NaN/i);
    expect(code).toBe(2);
  });

  it('has nothing to say of a database the server has, of none named, or of a Redis that does not answer', async () => {
    const single = (url: string) => ({ topology: 'single' as const, url });
    await expect(refusedDatabase(single(withDatabase('/1')))).resolves.toBeUndefined();
    await expect(refusedDatabase(single(redisUrl()))).resolves.toBeUndefined();
    const closed = `redis://127.0.0.1:${await freePort()}/99`;
    await expect(refusedDatabase(single(closed))).resolves.toBeUndefined();
  });

  it('names the database when asked directly', async () => {
    const refusal = await refusedDatabase({ topology: 'single', url: withDatabase('/99') });
    expect(refusal?.code).toBe('redis_refused');
    expect(refusal?.message).toMatch(/^REDIS_URL: /);
  });
});
