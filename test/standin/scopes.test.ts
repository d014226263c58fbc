import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

/** A token with the channel scopes but neither DM read scope (manifest.yml before im:read and mpim:read). */
const SCOPES = ['channels:read', 'groups:read', 'im:write', 'mpim:write'];

let standin: SlackStandin;

beforeEach(async () => {
  standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    scopes: SCOPES,
    channels: { C0APPROVE: ['U1', 'U2'], G0PRIVATE: ['U1', 'U0STANDINBOT'] },
  });
});
afterEach(() => standin.close());

const members = async (channel: string) =>
  (await callApi(standin, 'conversations.members', { channel })).body;

describe('Slack stand-in: the bot token’s scopes by conversation type', () => {
  it('lists channels whose read scope the token has', async () => {
    expect((await members('C0APPROVE')).members).toEqual(['U1', 'U2']);
    expect((await members('G0PRIVATE')).members).toEqual(['U1', 'U0STANDINBOT']);
  });

  it('refuses conversations.members on a group DM or DM without mpim:read or im:read, naming the scope needed', async () => {
    const provided = SCOPES.join(',');
    const mpim = standin.mpimChannelOf(['U1', 'U2']);
    expect(await members(mpim)).toEqual({ ok: false, error: 'missing_scope', needed: 'mpim:read', provided });
    expect(await members(standin.dmChannelOf('U1'))).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'im:read',
      provided,
    });
  });

  it('lists a group DM’s and a DM’s people and the bot once the token has their read scopes', async () => {
    await standin.close();
    standin = await startSlackStandin({ botToken: BOT_TOKEN, scopes: [...SCOPES, 'im:read', 'mpim:read'] });
    expect((await members(standin.mpimChannelOf(['U2', 'U1']))).members).toEqual([
      'U1',
      'U2',
      'U0STANDINBOT',
    ]);
    expect((await members(standin.dmChannelOf('U1'))).members).toEqual(['U1', 'U0STANDINBOT']);
  });

  it('refuses conversations.open of a DM or group DM without im:write or mpim:write', async () => {
    await standin.close();
    standin = await startSlackStandin({ botToken: BOT_TOKEN, scopes: ['chat:write', 'mpim:write'] });
    const open = async (users: string) => (await callApi(standin, 'conversations.open', { users })).body;
    expect(await open('U1')).toMatchObject({ ok: false, error: 'missing_scope', needed: 'im:write' });
    expect(await open('U1,U2')).toMatchObject({
      ok: true,
      channel: { id: standin.mpimChannelOf(['U1', 'U2']) },
    });
  });

  it('refuses nothing for a token whose scopes it was not told', async () => {
    await standin.close();
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    expect((await members(standin.dmChannelOf('U1'))).ok).toBe(true);
  });
});

describe('Slack stand-in: scopes by method, posting where the bot is not, archived channels', () => {
  it('refuses users.info without users:read and usergroups.users.list without usergroups:read', async () => {
    const provided = SCOPES.join(',');
    expect((await callApi(standin, 'users.info', { user: 'U1' })).body).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'users:read',
      provided,
    });
    expect((await callApi(standin, 'usergroups.users.list', { usergroup: 'S1' })).body).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'usergroups:read',
      provided,
    });
  });

  it('posts in a public channel the bot is not in only with chat:write.public (not_in_channel without)', async () => {
    const post = async () =>
      (await callApi(standin, 'chat.postMessage', { channel: 'C0APPROVE', text: 'hi' })).body;
    expect(await post()).toMatchObject({ ok: false, error: 'not_in_channel' });
    await standin.close();
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      scopes: [...SCOPES, 'chat:write', 'chat:write.public'],
      channels: { C0APPROVE: ['U1', 'U2'] },
    });
    expect(await post()).toMatchObject({ ok: true, channel: 'C0APPROVE' });
  });

  it('answers a post to an archived channel is_archived and an update of its message is_inactive', async () => {
    const posted = (await callApi(standin, 'chat.postMessage', { channel: 'G0PRIVATE', text: 'hi' })).body;
    standin.archive('G0PRIVATE');
    const again = await callApi(standin, 'chat.postMessage', { channel: 'G0PRIVATE', text: 'hi' });
    const update = await callApi(standin, 'chat.update', { channel: 'G0PRIVATE', ts: posted.ts, text: 'x' });
    expect([again.body.error, update.body.error]).toEqual(['is_archived', 'is_inactive']);
  });
});
