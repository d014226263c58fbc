import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

let standin: SlackStandin;

beforeEach(async () => {
  standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    usergroups: { S0OPS: ['U1', 'W2'] },
    channels: {
      C0APPROVE: ['U1', 'U2', 'U3', 'U4', 'U5'],
      C0WITHBOT: ['U1', 'U0STANDINBOT'],
      G0PRIVATE: ['U1'],
    },
  });
});
afterEach(() => standin.close());

describe('Slack stand-in: user groups and channel members', () => {
  it('lists a user group’s members, and refuses an unknown or missing group as Slack does', async () => {
    expect((await callApi(standin, 'usergroups.users.list', { usergroup: 'S0OPS' })).body).toEqual({
      ok: true,
      users: ['U1', 'W2'],
    });
    expect((await callApi(standin, 'usergroups.users.list', { usergroup: 'S0NONE' })).body).toEqual({
      ok: false,
      error: 'no_such_subteam',
    });
    expect((await callApi(standin, 'usergroups.users.list', {})).body.error).toBe('missing_argument');
  });

  it('pages a channel’s members with next_cursor until it comes back empty', async () => {
    const first = await callApi(standin, 'conversations.members', { channel: 'C0APPROVE', limit: 2 });
    expect(first.body.members).toEqual(['U1', 'U2']);
    const cursor = (first.body.response_metadata as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBe('');
    const rest = await callApi(standin, 'conversations.members', { channel: 'C0APPROVE', cursor, limit: 10 });
    expect(rest.body).toEqual({
      ok: true,
      members: ['U3', 'U4', 'U5'],
      response_metadata: { next_cursor: '' },
    });
  });

  it('answers conversations.members errors: unknown channel, bad cursor, bad limit', async () => {
    const call = async (args: Record<string, unknown>) =>
      (await callApi(standin, 'conversations.members', args)).body.error;
    expect(await call({ channel: 'C0NOWHERE' })).toBe('channel_not_found');
    expect(await call({ channel: 'C0APPROVE', cursor: 'bm9wZQ==' })).toBe('invalid_cursor');
    expect(await call({ channel: 'C0APPROVE', limit: 1001 })).toBe('invalid_limit');
  });

  it('refuses the bot’s posts in a listed channel it is not a member of, as Slack does', async () => {
    const post = async (channel: string, method = 'chat.postMessage') =>
      (await callApi(standin, method, { channel, text: 'hello', user: 'U1' })).body;
    expect(await post('C0APPROVE')).toEqual({ ok: false, error: 'not_in_channel' });
    expect(await post('G0PRIVATE')).toEqual({ ok: false, error: 'channel_not_found' });
    expect(await post('C0APPROVE', 'chat.postEphemeral')).toEqual({ ok: false, error: 'not_in_channel' });
    expect((await post('C0WITHBOT')).ok).toBe(true);
    expect((await post('C0UNLISTED')).ok).toBe(true);
  });
});
