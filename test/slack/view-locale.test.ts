// A form's submit is answered in the language the form was drawn in, which its private_metadata names, without
// asking Slack for the person's locale (users.info, a Web API round trip before the ack on every replica that
// has not cached that person: in the open-loop bench, every submit). A view that names no language (drawn
// before views said it) still asks, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewSubmitAction } from '@slack/bolt';
import { FORM_CALLBACK, formModal, parseFormSchema } from '../../blocks/index.js';
import { Answering } from '../../src/answering/service.js';
import { systemClock } from '../../src/clock.js';
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
import { captureLogs } from './log-capture.js';

const BOT_TOKEN = 'xoxb-view-locale';
const SECRET = 'view-locale-signing-secret';
/** Slack says this person reads Chinese; everyone else gets the stand-in's default (English). */
const CHINESE_READER = 'U0ZHREADER';
const CHINESE = /[\u4e00-\u9fff]/;

/** A form for question `q-gone` (which the store no longer has) as the bot draws it, submitted by `userId`. */
function submission(standin: SlackStandin, userId: string, privateMetadata: string): Record<string, unknown> {
  const id = standin.identity;
  const spec = parseFormSchema({ type: 'object', properties: { name: { type: 'string' } } });
  const drawn = formModal(spec, { questionId: 'q-gone', server: 's', message: 'Name?' });
  return {
    type: 'view_submission',
    team: { id: id.teamId, domain: id.teamDomain },
    user: { id: userId, username: userId, name: userId, team_id: id.teamId },
    api_app_id: id.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: standin.issueTriggerId(userId),
    view: { ...drawn, id: 'V0LOCALE', private_metadata: privateMetadata, state: { values: {} } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

describe("a form's submit", () => {
  let standin: SlackStandin;
  let slack: SlackApp;
  let driver: SlackDriver;
  let close: () => Promise<void>;

  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      users: { [CHINESE_READER]: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    });
    const prefix = uniquePrefix();
    const outbox = await Outbox.open({ url: redisUrl(), prefix });
    const state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'view-locale' });
    slack = createSlackApp({
      slack: {
        mode: 'http',
        signingSecret: SECRET,
        auth: 'token',
        botToken: BOT_TOKEN,
        apiUrl: standin.apiUrl,
      },
      logger: captureLogs().logger,
      isLive: () => true,
      readiness: () => Promise.resolve({ ok: true }),
      outbox,
      state,
    });
    const answering = new Answering({
      // The question is gone: the submit is refused, in words that show the language used.
      store: {
        get: () => Promise.resolve(undefined),
        draft: () => Promise.resolve(undefined),
        saveDraft: () => Promise.resolve(false),
      },
      relay: { end: () => Promise.reject(new Error('nothing is answered here')) },
      mayAnswer: () => Promise.resolve(true),
      policyOf: () => ({ review: 'never', onClose: 'cancel' }),
      clock: systemClock,
    });
    slack.app.view<ViewSubmitAction>(FORM_CALLBACK, (args) =>
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

  const usersInfoCalls = (userId: string): number =>
    standin.calls.filter((c) => c.method === 'users.info' && c.args.user === userId).length;

  it('is answered in the language its view names, without asking Slack for the locale', async () => {
    const reply = await driver.send({
      payload: submission(standin, 'U0ENREADER', JSON.stringify({ q: 'q-gone', l: 'zh-CN' })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(CHINESE);
    expect(usersInfoCalls('U0ENREADER')).toBe(0);
  });

  it('asks Slack for the locale when its view names none, and is answered in it', async () => {
    const reply = await driver.send({
      payload: submission(standin, CHINESE_READER, JSON.stringify({ q: 'q-gone' })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(CHINESE);
    expect(usersInfoCalls(CHINESE_READER)).toBe(1);
  });
});
