// ELICIT_RELAY_SHUTDOWN_DELAY: behind a load balancer or a Kubernetes Service, requests keep arriving for a few
// seconds after a replica starts stopping (endpoints are removed asynchronously; a health-checking balancer
// needs a few failed /readyz first). With the delay set, a stop turns /readyz to 503 and then keeps serving
// Slack's requests until the delay ends, and only then stops; the delay is timed on the clock start() is given.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { SlackDriver, startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { commandAnswer } from '../support/command-answers.js';
import { loadSlackConfig } from '../support/config.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const BOT_TOKEN = 'xoxb-test-token';
const SIGNING_SECRET = 'test-signing-secret';

/** A schedule that hands each timer to the test (ms and how to run it) instead of running it. */
function heldTimers() {
  const first = deferred<{ ms: number; run: () => void }>();
  const held: (() => void)[] = [];
  return {
    first: first.promise,
    schedule: (fn: () => void, ms: number) => {
      held.push(fn);
      first.resolve({ ms, run: fn });
      return () => undefined;
    },
    /** Runs every timer held (a test that failed mid-delay still lets its stop go on). */
    release: () => held.splice(0).forEach((fn) => fn()),
  };
}

describe('ELICIT_RELAY_SHUTDOWN_DELAY', () => {
  const prefix = uniquePrefix();
  let standin: SlackStandin | undefined;
  let relay: RunningRelay | undefined;
  const timers = heldTimers();
  afterAll(async () => {
    timers.release();
    await relay?.stop();
    await standin?.close();
    await deleteUnder(prefix);
  });

  it('answers /readyz 503 and still serves Slack during the delay, then stops', async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    const config = loadSlackConfig({
      env: {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: standin.apiUrl,
        REDIS_URL: redisUrl(),
        REDIS_PREFIX: prefix,
        PORT: '0',
        ELICIT_RELAY_CONFIG: 'servers.json',
        ELICIT_RELAY_SHUTDOWN_DELAY: '5s',
      },
      readFile: () => JSON.stringify({ mcpServers: {} }),
    });
    relay = await start(config, createLogger('silent'), { clock: { schedule: timers.schedule } });
    const readyz = `http://127.0.0.1:${relay.port}/readyz`;
    const driver = new SlackDriver({
      eventsUrl: `http://127.0.0.1:${relay.port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standin,
    });
    expect((await fetch(readyz)).status).toBe(200);

    const stopping = relay.stop();
    const first = await Promise.race([timers.first, stopping.then(() => 'stopped')]);
    // The stop waits on the delay's timer instead of going on to stop the parts.
    expect(first).not.toBe('stopped');
    const delay = await timers.first;
    expect(delay.ms).toBe(5_000);

    const unready = await fetch(readyz);
    expect([unready.status, await unready.json()]).toMatchObject([503, { ok: false, serving: false }]);
    const request = driver.slashCommandRequest({ userId: 'U1', command: '/mcp', text: 'help' });
    const { ack, text } = await commandAnswer((r) => driver.send(r), standin, request);
    expect([ack.status, text]).toEqual([200, expect.stringContaining('/mcp tools &lt;server&gt;')]);

    delay.run();
    await stopping;
    await expect(fetch(readyz)).rejects.toThrow();
  });
});
