import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SLACK_POLICY, type SlackPolicy } from '../../src/config/index.js';
import type { Question } from '../../src/relay/types.js';
import { Audience, placeOf } from '../../src/slack/audience.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { question as pendingQuestion } from '../support/question.js';
import { recordingClock } from '../support/recording-clock.js';
import { standinClient } from './standin-client.js';

const TOKEN = 'xoxb-audience';
/** More members than one conversations.members page holds, so the check has to follow next_cursor. */
const CROWD = Array.from({ length: 1500 }, (_, i) => `U${String(i).padStart(5, '0')}`);

let standin: SlackStandin;
let audience: (policy: Partial<SlackPolicy>) => Audience;

beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: TOKEN,
    usergroups: { S0OPS: ['UOPS1'] },
    channels: { C0CROWD: CROWD },
  });
  const client = new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } });
  audience = (policy) =>
    new Audience(singleWorkspace(client), () => ({ ...DEFAULT_SLACK_POLICY, ...policy }));
});
afterAll(() => standin.close());

const question = (answerers: Question['answerers']): Question =>
  pendingQuestion({
    id: 'q1',
    server: 's',
    message: 'm',
    requestedSchema: {},
    timeoutMs: 1000,
    deadline: 1000,
    ...(answerers ? { answerers } : {}),
  });

describe('where a question is asked', () => {
  it('goes to the command’s thread when known, its channel otherwise, and the DM without a channel', () => {
    const thread = { ...DEFAULT_SLACK_POLICY, route: 'thread' as const };
    expect(placeOf(thread, { userId: 'U1', channelId: 'C1', threadTs: '1.2' })).toEqual({
      channel: 'C1',
      threadTs: '1.2',
    });
    expect(placeOf(thread, { userId: 'U1', channelId: 'C1' })).toEqual({ channel: 'C1' });
    expect(placeOf(thread, { userId: 'U1' })).toEqual({ dm: 'U1' });
    expect(placeOf(DEFAULT_SLACK_POLICY, { userId: 'U1', channelId: 'C1' })).toEqual({ dm: 'U1' });
  });
});

describe('who may answer', () => {
  it('is the requester alone by default, with nothing stored', async () => {
    expect(await audience({}).answerersFor('s', { userId: 'U1' })).toBeUndefined();
    expect(await audience({}).mayAnswer(question(undefined), 'U2')).toBe(false);
  });

  it('resolves user groups when asked, and fails with a typed error for a group Slack does not know', async () => {
    const answerers = { requester: true, users: ['U2'], usergroups: ['S0OPS'], channel: false };
    expect(await audience({ answerers }).answerersFor('s', { userId: 'U1' })).toEqual({
      users: ['U1', 'U2'],
      groups: [{ id: 'S0OPS', members: ['UOPS1'] }],
    });
    const unknown = audience({ answerers: { ...answerers, usergroups: ['S0GONE'] } });
    await expect(unknown.answerersFor('s', { userId: 'U1' })).rejects.toMatchObject({
      code: 'no_answerers',
      message: 'no such user group S0GONE (Slack: no_such_subteam)',
    });
  });

  it('lists a user group once for the questions asked together, and again after Slack rate-limits it', async () => {
    const clock = recordingClock();
    const answerers = { requester: false, users: [], usergroups: ['S0OPS'], channel: false };
    const policy = () => ({ ...DEFAULT_SLACK_POLICY, answerers });
    const limited = new Audience(singleWorkspace(standinClient(standin, TOKEN)), policy, clock);
    const before = standin.calls.length;
    standin.failNext('usergroups.users.list', 'ratelimited', { retryAfterSec: 2 });
    const asked = await Promise.all([1, 2, 3].map(() => limited.answerersFor('s', { userId: 'U1' })));
    expect(asked).toEqual(Array(3).fill({ users: [], groups: [{ id: 'S0OPS', members: ['UOPS1'] }] }));
    const lists = standin.calls.slice(before).filter((c) => c.method === 'usergroups.users.list');
    expect(lists.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    expect(clock.waits).toEqual([2_000]);
  });

  it('checks channel membership again after a 429 that fits in the click’s reply time, and not after a longer one', async () => {
    const clock = recordingClock();
    // A new audience each time: the first one keeps the channel's list, so it would not ask Slack again.
    const limited = () => new Audience(singleWorkspace(standinClient(standin, TOKEN)), undefined, clock);
    const inChannel = question({ users: [], channel: 'C0CROWD' });
    standin.failNext('conversations.members', 'ratelimited', { retryAfterSec: 1 });
    const first = limited();
    expect(await first.mayAnswer(inChannel, 'U00001')).toBe(true);
    // The member was on the first page; the list's paging goes on to its end.
    await first.warm('C0CROWD');
    standin.failNext('conversations.members', 'ratelimited', { retryAfterSec: 2 });
    await expect(limited().mayAnswer(inChannel, 'U00001')).rejects.toMatchObject({ retryAfter: 2 });
    expect(clock.waits).toEqual([1_000]);
  });

  it('finds a channel member past the first page of members, and refuses someone outside', async () => {
    const inChannel = question({ users: [], channel: 'C0CROWD' });
    expect(await audience({}).mayAnswer(inChannel, 'U01400')).toBe(true);
    expect(await audience({}).mayAnswer(inChannel, 'UOUTSIDE')).toBe(false);
  });
});
