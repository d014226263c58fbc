// A form's submit is answered in the language the form was drawn in, which its private_metadata names, without
// asking Slack for the person's locale (users.info, a Web API round trip before the ack on every replica that
// has not cached that person: in the open-loop bench, every submit). A view that names no language (drawn
// before views said it) still asks, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_CALLBACK, formModal, parseFormSchema } from '../../blocks/index.js';
import { systemClock } from '../../src/clock.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startFormApp, viewSubmission, type RunningBoltApp } from './support.js';

const BOT_TOKEN = 'xoxb-view-locale';
/** Slack says this person reads Chinese; everyone else gets the stand-in's default (English). */
const CHINESE_READER = 'U0ZHREADER';
const CHINESE = /[\u4e00-\u9fff]/;

/** A form for question `q-gone` (which the store no longer has) as the bot draws it, submitted by `userId`. */
function submission(standin: SlackStandin, userId: string, privateMetadata: string): Record<string, unknown> {
  const spec = parseFormSchema({ type: 'object', properties: { name: { type: 'string' } } });
  const drawn = formModal(spec, { questionId: 'q-gone', server: 's', message: 'Name?' });
  return viewSubmission(standin, userId, {
    ...drawn,
    id: 'V0LOCALE',
    private_metadata: privateMetadata,
    state: { values: {} },
  });
}

describe("a form's submit", () => {
  let standin: SlackStandin;
  let app: RunningBoltApp;

  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      users: { [CHINESE_READER]: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    });
    app = await startFormApp({
      standin,
      botToken: BOT_TOKEN,
      holderId: 'view-locale',
      callbackId: FORM_CALLBACK,
      // The question is gone: the submit is refused, in words that show the language used.
      store: {
        get: () => Promise.resolve(undefined),
        draft: () => Promise.resolve(undefined),
        saveDraft: () => Promise.resolve(false),
      },
      clock: systemClock,
    });
  });
  afterAll(async () => {
    await app.close();
    await standin.close();
  });

  const usersInfoCalls = (userId: string): number =>
    standin.calls.filter((c) => c.method === 'users.info' && c.args.user === userId).length;

  it('is answered in the language its view names, without asking Slack for the locale', async () => {
    const reply = await app.driver.send({
      payload: submission(standin, 'U0ENREADER', JSON.stringify({ q: 'q-gone', l: 'zh-CN' })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(CHINESE);
    expect(usersInfoCalls('U0ENREADER')).toBe(0);
  });

  it('asks Slack for the locale when its view names none, and is answered in it', async () => {
    const reply = await app.driver.send({
      payload: submission(standin, CHINESE_READER, JSON.stringify({ q: 'q-gone' })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(CHINESE);
    expect(usersInfoCalls(CHINESE_READER)).toBe(1);
  });
});
