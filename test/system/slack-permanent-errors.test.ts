// Slack's permanent refusals during an API question's life, against the bot, real Redis and the Slack stand-in
// (which answers as docs.slack.dev's method pages list): a channel archived while its question waits, a card
// posted where the bot cannot post, and a workspace that reinstalled the app with fewer scopes than manifest.yml
// asks for (`missing_scope`, naming the scope `needed`). Each degrades for that call alone, with one log line
// naming what and the fix, instead of a 500, a failed question over its language, or a retried 502.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { redisUrl } from '../setup/context.js';
import { until } from '../support/until.js';
import { captureLogs, printLogsOnFailure, type CapturedLogs } from '../slack/log-capture.js';
import { apiOf, cardWith, codeOf, type Api } from './api-support.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-permanent-errors-0123';
const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } } };
const BOT = 'U0STANDINBOT';

/** One replica whose bot token has the manifest's scopes but `dropped`; U1 reads Chinese. */
async function rig(dropped: string[], logs: CapturedLogs): Promise<{ h: Harness; api: Api }> {
  const h = await startHarness({
    env: { ELICIT_RELAY_API_TOKEN: TOKEN },
    logger: logs.logger,
    workspace: {
      scopes: BOT_SCOPES.filter((scope) => !dropped.includes(scope)),
      users: { U1: { name: 'li', locale: 'zh-CN' } },
      usergroups: { S0ONCALL: ['U4', 'U5'] },
      channels: { C0ARCHIVE: ['U1', BOT], C0ARCHIVED: ['U1', BOT], C0NOTIN: ['U1'] },
    },
  });
  return { h, api: apiOf(h, TOKEN) };
}

const ask = (api: Api, to: object, message: string) =>
  api('POST', '/questions', { body: { message, requestedSchema: SCHEMA, to } });

/** The question's end as GET reports it, once it ended (long-poll). */
async function endOf(api: Api, id: string): Promise<Record<string, unknown>> {
  const ended = await api('GET', `/questions/${id}?wait=20`);
  return { status: ended.body.status, reason: ended.body.reason };
}

describe('Slack refuses for good while questions wait (users:read and usergroups:read dropped)', () => {
  const logs = captureLogs('warn');
  printLogsOnFailure(logs);
  let h: Harness;
  let api: Api;
  const redis = new Redis(redisUrl());
  const questionKey = (id: string): string => keys(h.prefix).question(id);
  beforeAll(async () => ({ h, api } = await rig(['users:read', 'usergroups:read'], logs)));
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it('withdraws a question whose channel was archived: 200 and cancelled, its card update refused once in one warn line', async () => {
    const id = String((await ask(api, { channel: 'C0ARCHIVE' }, 'Archived soon?')).body.id);
    await cardWith(h, 'Archived soon?');
    // Its card attached, so the withdrawal's own end updates it (not the poster's, as for an end before it).
    await until(
      'the card attached',
      10_000,
      async () => (await redis.hexists(questionKey(id), 'cardTs')) === 1,
    );
    h.standin.archive('C0ARCHIVE');

    const withdrawn = await api('DELETE', `/questions/${id}`);

    expect({ status: withdrawn.status, state: withdrawn.body.status }).toEqual({
      status: 200,
      state: 'cancelled',
    });
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.channel === 'C0ARCHIVE');
    expect(update.error).toBe('is_inactive');
    await logs.waitFor((l) => l.channel === 'C0ARCHIVE');
    const gone = logs.lines.filter((l) => l.channel === 'C0ARCHIVE');
    expect(gone.map((l) => ({ level: l.level, questionId: l.questionId, error: l.error }))).toEqual([
      { level: 40, questionId: id, error: 'is_inactive' },
    ]);
  });

  it('ends a question asked in an archived channel, or one the bot is not in, delivery_failed', async () => {
    h.standin.archive('C0ARCHIVED');
    const archived = String((await ask(api, { channel: 'C0ARCHIVED' }, 'Into the archive?')).body.id);
    const notIn = String((await ask(api, { channel: 'C0NOTIN' }, 'Not a member?')).body.id);

    const cancelled = { status: 'cancelled', reason: 'delivery_failed' };
    expect(await endOf(api, archived)).toEqual(cancelled);
    expect(await endOf(api, notIn)).toEqual(cancelled);
  });

  it('asks a person in the default language when users.info is refused for users:read, said once', async () => {
    const id = String((await ask(api, { user: 'U1' }, 'Language unknown?')).body.id);
    const card = await cardWith(h, 'Language unknown?');
    expect(card.channel).toBe(h.standin.dmChannelOf('U1'));
    expect(JSON.stringify(card.call.args.blocks)).toContain('Respond');
    await ask(api, { user: 'U1' }, 'Still unknown?');
    await cardWith(h, 'Still unknown?');

    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    const said = logs.lines.filter((l) => l.needed === 'users:read');
    expect(said).toHaveLength(1);
    expect(String(said[0]?.msg)).toContain('reinstall the app in the workspace with users:read');
    await api('DELETE', `/questions/${id}`);
  });

  it('refuses a user group it cannot list for usergroups:read with 403 missing_scope naming the scope', async () => {
    const refused = await ask(api, { usergroup: 'S0ONCALL' }, 'On call?');

    expect({ status: refused.status, code: codeOf(refused) }).toEqual({ status: 403, code: 'missing_scope' });
    const message = String((refused.body.error as { message?: unknown }).message);
    expect(message).toContain('usergroups:read');
    expect(message).toContain('reinstall');
  });
});

describe('a DM card when conversations.open is refused for im:write', () => {
  const logs = captureLogs('warn');
  printLogsOnFailure(logs);
  let h: Harness;
  let api: Api;
  beforeAll(async () => ({ h, api } = await rig(['im:write'], logs)));
  afterAll(() => h.close());

  it('ends the question delivery_failed with one error line naming the scope and the fix', async () => {
    const id = String((await ask(api, { user: 'U1' }, 'No DM?')).body.id);

    expect(await endOf(api, id)).toEqual({ status: 'cancelled', reason: 'delivery_failed' });
    const line = await logs.waitFor((l) => l.questionId === id && l.level === 50);
    expect(line.code).toBe('missing_scope');
    expect(String((line.err as { message?: unknown }).message)).toContain('lacks the im:write scope');
    expect(logs.lines.filter((l) => l.questionId === id && l.level === 50)).toHaveLength(1);
  });
});

describe('a user group Slack does not know (usergroups.users.list answers no_such_subteam)', () => {
  const logs = captureLogs('warn');
  printLogsOnFailure(logs);
  let h: Harness;
  let api: Api;
  beforeAll(async () => ({ h, api } = await rig([], logs)));
  afterAll(() => h.close());

  it('is refused with 400 no_answerers naming /to/usergroup, not a 502 clients retry for ever', async () => {
    const refused = await ask(api, { usergroup: 'S0NOSUCH' }, 'Anyone?');

    expect({ status: refused.status, code: codeOf(refused) }).toEqual({ status: 400, code: 'no_answerers' });
    expect((refused.body.error as { message?: unknown }).message).toBe(
      '/to/usergroup: no such user group S0NOSUCH (Slack: no_such_subteam)',
    );
    expect((await ask(api, { usergroup: 'S0ONCALL' }, 'On call?')).status).toBe(201);
  });
});
