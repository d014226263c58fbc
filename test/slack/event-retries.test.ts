// Events API retries: Slack redelivers an event it got no 200 for within 3 s (X-Slack-Retry-Num), maybe to
// another replica. Every delivery gets its 200 at once, and the event is processed by exactly one replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { uniquePrefix } from '../setup/context.js';
import { startBoltApp, type RunningBoltApp } from './support.js';

const BOT_TOKEN = 'xoxb-retries';
const SECRET = 'retries-signing-secret';

interface Replica extends RunningBoltApp {
  /** Users whose app_home_opened this replica's listener processed. */
  processed: string[];
}

async function startReplica(standin: SlackStandin, prefix: string, name: string): Promise<Replica> {
  const processed: string[] = [];
  const app = await startBoltApp({
    standin,
    botToken: BOT_TOKEN,
    signingSecret: SECRET,
    prefix,
    holderId: name,
    listen: (slack) =>
      slack.app.event('app_home_opened', ({ event, logger }) => {
        processed.push(event.user);
        logger.info(`processed ${event.user}`);
        return Promise.resolve();
      }),
  });
  return { ...app, processed };
}

const dropped = (eventId: string, retryNum: number) => (line: Record<string, unknown>) =>
  line.eventId === eventId && line.retryNum === retryNum;

describe('Events API retries', () => {
  let standin: SlackStandin;
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    const prefix = uniquePrefix();
    a = await startReplica(standin, prefix, 'replica-a');
    b = await startReplica(standin, prefix, 'replica-b');
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await standin.close();
  });

  it('acks every delivery with 200 and processes the event once across two replicas', async () => {
    const first = await a.driver.openHome('U1', { eventId: 'Ev0RETRY1' });
    const retry1 = await b.driver.openHome(
      'U1',
      { eventId: 'Ev0RETRY1' },
      { retry: { num: 1, reason: 'http_timeout' } },
    );
    const retry2 = await a.driver.openHome(
      'U1',
      { eventId: 'Ev0RETRY1' },
      { retry: { num: 2, reason: 'http_error' } },
    );
    expect([first.status, retry1.status, retry2.status]).toEqual([200, 200, 200]);
    // Each delivery ends either in the listener or in the "dropped" line; wait for all three endings.
    await Promise.all([
      a.logs.waitFor((l) => l.msg === 'processed U1'),
      b.logs.waitFor(dropped('Ev0RETRY1', 1)),
      a.logs.waitFor(dropped('Ev0RETRY1', 2)),
    ]);
    expect([...a.processed, ...b.processed]).toEqual(['U1']);
  });

  it('processes different events on either replica', async () => {
    await a.driver.openHome('U2');
    await b.driver.openHome('U3');
    await Promise.all([
      a.logs.waitFor((l) => l.msg === 'processed U2'),
      b.logs.waitFor((l) => l.msg === 'processed U3'),
    ]);
    expect(a.processed).toContain('U2');
    expect(b.processed).toContain('U3');
  });
});
