// A late ack: Redis answers a form's submit so late (a starved event loop, as in the open-loop bench) that Bolt
// has already answered Slack 404 at its 3 s before the answering service's "not recorded" reply acks. That ack
// must be logged and the bot keep serving; before, it threw ERR_HTTP_HEADERS_SENT from the reply timer, an
// unhandled rejection that killed the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayStore } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { manualClock } from '../support/answering.js';
import { startFormApp, viewSubmission, type RunningBoltApp } from './support.js';
import { deferred } from '../support/deferred.js';

const BOT_TOKEN = 'xoxb-late-ack';
const CALLBACK = 'late_ack_form';

/** The question's reads, held until `answer()`: Redis answering late. */
function lateReads(): Pick<RelayStore, 'get' | 'draft' | 'saveDraft'> & { answer(): void } {
  const { promise: answered, resolve: answer } = deferred();
  return {
    answer: () => answer(),
    get: async (): Promise<Question | undefined> => {
      await answered;
      return undefined;
    },
    draft: () => Promise.resolve(undefined),
    saveDraft: () => Promise.resolve(false),
  };
}

function submission(standin: SlackStandin, userId: string): Record<string, unknown> {
  return viewSubmission(standin, userId, {
    id: 'V0LATE',
    type: 'modal',
    callback_id: CALLBACK,
    private_metadata: 'q-late',
    blocks: [],
    state: { values: {} },
  });
}

describe('a late ack', () => {
  let standin: SlackStandin;
  let app: RunningBoltApp;
  const clock = manualClock();
  const reads = lateReads();

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    app = await startFormApp({
      standin,
      botToken: BOT_TOKEN,
      holderId: 'late-ack',
      callbackId: CALLBACK,
      store: reads,
      clock,
    });
  });
  afterAll(async () => {
    await app.close();
    await standin.close();
  });

  it('after Bolt answered 404 at 3 s is logged, and the bot goes on serving', async () => {
    // Bolt's own timer answers the unacked submit (3001 ms of real time: Bolt's, not ours to inject).
    const first = await app.driver.send({ payload: submission(standin, 'U0LATE') });
    expect(first.status).toBe(404);

    // Only now does the service's reply bound run: "not recorded" acks, too late.
    clock.fire();
    const late = await app.logs.waitFor((line) => line.payloadType === 'view_submission');
    expect(late.level).toBe(40);
    reads.answer();

    // Still alive and answering: with Redis back, the next submit is acked in time (its question is gone).
    const next = await app.driver.send({ payload: submission(standin, 'U0NEXT') });
    expect(next.status).toBe(200);
  });
});
