// The bot's Bolt app as the Slack listener tests run it: HTTP mode against Slack's stand-in with a bot token,
// its logs captured, its outbox and state in the run's Redis under `prefix`, and the test's own listeners added
// (`listen`) before it starts on a free port; or one serving only a form's submit (`startFormApp`).
import type { ViewSubmitAction } from '@slack/bolt';
import type { AnsweringOptions } from '../../src/answering/service.js';
import type { RelayClock } from '../../src/relay/relay.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { Outbox, SlackState } from '../../src/slack/index.js';
import { submitForm } from '../../src/slack/listeners/views/form.js';
import { SlackDriver, VERIFICATION_TOKEN, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { answeringWith } from '../support/answering.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';

export interface BoltAppOptions {
  standin: SlackStandin;
  botToken: string;
  signingSecret: string;
  /** The Redis key prefix; replicas of one bot share it. */
  prefix: string;
  /** This replica's name (SlackState's holder). */
  holderId: string;
  listen: (slack: SlackApp) => void;
}

export interface RunningBoltApp {
  slack: SlackApp;
  /** Sends Slack's signed requests to this app. */
  driver: SlackDriver;
  /** Where Slack's requests go (POST). */
  eventsUrl: string;
  logs: CapturedLogs;
  /** Stops the app and closes its outbox and state (the stand-in is the test's). */
  close(): Promise<void>;
}

export async function startBoltApp(options: BoltAppOptions): Promise<RunningBoltApp> {
  const { standin, botToken, signingSecret, prefix, holderId } = options;
  const logs = captureLogs();
  const outbox = await Outbox.open({ url: redisUrl(), prefix });
  const state = await SlackState.open({ url: redisUrl(), prefix, holderId });
  const slack = createSlackApp({
    slack: { mode: 'http', signingSecret, auth: 'token', botToken, apiUrl: standin.apiUrl },
    logger: logs.logger,
    isLive: () => true,
    readiness: () => Promise.resolve({ ok: true }),
    outbox,
    state,
  });
  options.listen(slack);
  const { port } = await slack.start(0);
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  const driver = new SlackDriver({ eventsUrl, signingSecret, standin });
  const close = async (): Promise<void> => {
    await slack.stop();
    await outbox.close();
    await state.close();
  };
  return { slack, driver, eventsUrl, logs, close };
}

export interface FormAppOptions {
  standin: SlackStandin;
  botToken: string;
  /** This replica's name; its signing secret is named after it. */
  holderId: string;
  /** The form's callback_id the submit listener serves. */
  callbackId: string;
  /** The question's reads as the answering service makes them. */
  store: AnsweringOptions['store'];
  clock: RelayClock;
}

/**
 * A Bolt app serving only a form's submit (`submitForm`) over an Answering whose reads are `store`: no review,
 * closing cancels, and nothing may end (these tests' questions are gone, or read late).
 */
export function startFormApp(options: FormAppOptions): Promise<RunningBoltApp> {
  const { standin, botToken, holderId, callbackId, store, clock } = options;
  const answering = answeringWith(
    { store, relay: { end: () => Promise.reject(new Error('nothing is answered here')) }, clock },
    { review: 'never', onClose: 'cancel' },
  );
  return startBoltApp({
    standin,
    botToken,
    signingSecret: `${holderId}-signing-secret`,
    prefix: uniquePrefix(),
    holderId,
    listen: (slack) =>
      slack.app.view<ViewSubmitAction>(callbackId, (args) =>
        submitForm(args, { answering, surface: slack.surface }),
      ),
  });
}

/** A view_submission payload as Slack sends it: `userId` submits `view` (its id, callback, metadata, state). */
export function viewSubmission(
  standin: SlackStandin,
  userId: string,
  view: Record<string, unknown>,
): Record<string, unknown> {
  const id = standin.identity;
  return {
    type: 'view_submission',
    team: { id: id.teamId, domain: id.teamDomain },
    user: { id: userId, username: userId, name: userId, team_id: id.teamId },
    api_app_id: id.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: standin.issueTriggerId(userId),
    view,
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}
