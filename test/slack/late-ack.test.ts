// A late ack: Redis answers a form's submit so late (a starved event loop, as in the open-loop bench) that Bolt
// has already answered Slack 404 at its 3 s before the answering service's "not recorded" reply acks. That ack
// must be logged and the bot keep serving; before, it threw ERR_HTTP_HEADERS_SENT from the reply timer, an
// unhandled rejection that killed the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewSubmitAction } from '@slack/bolt';
import { Answering } from '../../src/answering/service.js';
import type { RelayClock, RelayStore } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { Outbox, SlackState } from '../../src/slack/index.js';
import { submitForm } from '../../src/slack/listeners/views/form.js';
import {
  SlackDriver,
  startSlackStandin,
  VERIFICATION_TOKEN,
  type SlackStandin,
} from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';

const BOT_TOKEN = 'xoxb-late-ack';
const SECRET = 'late-ack-signing-secret';
const CALLBACK = 'late_ack_form';

/** A clock whose scheduled work (the service's 1.5 s reply bound) runs only when the test says so. */
function manualClock(): RelayClock & { fire(): void } {
  const due: (() => void)[] = [];
  return {
    now: () => 0,
    schedule: (fn) => {
      due.push(fn);
      return () => due.splice(due.indexOf(fn), 1);
    },
    fire: () => due.splice(0).forEach((fn) => fn()),
  };
}

/** The question's reads, held until `answer()`: Redis answering late. */
function lateReads(): Pick<RelayStore, 'get' | 'draft' | 'saveDraft'> & { answer(): void } {
  let answer = (): void => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
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
  const id = standin.identity;
  return {
    type: 'view_submission',
    team: { id: id.teamId, domain: id.teamDomain },
    user: { id: userId, username: userId, name: userId, team_id: id.teamId },
    api_app_id: id.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: standin.issueTriggerId(userId),
    view: {
      id: 'V0LATE',
      type: 'modal',
      callback_id: CALLBACK,
      private_metadata: 'q-late',
      blocks: [],
      state: { values: {} },
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

describe('a late ack', () => {
  let standin: SlackStandin;
  let slack: SlackApp;
  let driver: SlackDriver;
  let logs: CapturedLogs;
  let close: () => Promise<void>;
  const clock = manualClock();
  const reads = lateReads();

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    const prefix = uniquePrefix();
    logs = captureLogs();
    const outbox = await Outbox.open({ url: redisUrl(), prefix });
    const state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'late-ack' });
    slack = createSlackApp({
      slack: {
        mode: 'http',
        signingSecret: SECRET,
        auth: 'token',
        botToken: BOT_TOKEN,
        apiUrl: standin.apiUrl,
      },
      logger: logs.logger,
      isLive: () => true,
      readiness: () => Promise.resolve({ ok: true }),
      outbox,
      state,
    });
    const answering = new Answering({
      store: reads,
      relay: { end: () => Promise.reject(new Error('nothing is answered here')) },
      mayAnswer: () => Promise.resolve(true),
      policyOf: () => ({ review: 'never', onClose: 'cancel' }),
      clock,
    });
    slack.app.view<ViewSubmitAction>(CALLBACK, (args) =>
      submitForm(args, { answering, surface: slack.surface }),
    );
    const { port } = await slack.start(0);
    driver = new SlackDriver({
      eventsUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SECRET,
      standin,
    });
    close = async () => {
      await slack.stop();
      await outbox.close();
      await state.close();
      await standin.close();
    };
  });
  afterAll(() => close());

  it('after Bolt answered 404 at 3 s is logged, and the bot goes on serving', async () => {
    // Bolt's own timer answers the unacked submit (3001 ms of real time: Bolt's, not ours to inject).
    const first = await driver.send({ payload: submission(standin, 'U0LATE') });
    expect(first.status).toBe(404);

    // Only now does the service's reply bound run: "not recorded" acks, too late.
    clock.fire();
    const late = await logs.waitFor((line) => line.payloadType === 'view_submission');
    expect(late.level).toBe(40);
    reads.answer();

    // Still alive and answering: with Redis back, the next submit is acked in time (its question is gone).
    const next = await driver.send({ payload: submission(standin, 'U0NEXT') });
    expect(next.status).toBe(200);
  });
});
