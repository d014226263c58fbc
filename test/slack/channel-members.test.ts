// "Anyone in the channel" checked against the replica's member lists (src/slack/channel-members.ts): a click is
// answered within the answering service's reply bound on a channel too large to page in it, clicks that come
// together page once, a non-member is refused without paging per click, and joining or leaving counts once
// Slack is asked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLY_WITHIN_MS, type Reply } from '../../src/answering/service.js';
import { DEFAULT_SLACK_POLICY } from '../../src/config/index.js';
import type { RelayClock } from '../../src/relay/ports.js';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { answeringOver } from '../support/answering.js';
import { question } from '../support/question.js';
import { standinClient } from './standin-client.js';

const TOKEN = 'xoxb-channel-members';
const BOT = 'U0STANDINBOT';
const people = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
/** 12,000 members and the bot: 13 pages of 999, about 2 s of paging with Slack 150 ms away. */
const BIG = [BOT, ...people('UBIG', 12_000)];
/** 2,500 members and the bot: 3 pages. */
const CROWD = [BOT, ...people('UCRD', 2_500)];
const LAST = CROWD[CROWD.length - 1] ?? '';

let slow: SlackStandin;
let fast: SlackStandin;
/** Channels on the fast stand-in whose members a test changes; the stand-in reads these arrays live. */
const JOINING = [...CROWD];
const LEAVING = [...CROWD];
const SLOW = [...CROWD];
const GONE = [...CROWD];
const SMALL = [BOT, ...people('USML', 40)];

beforeAll(async () => {
  slow = await startSlackStandin({ botToken: TOKEN, latencyMs: 150, channels: { C0BIG: BIG } });
  const channels = {
    C0CROWD: CROWD,
    C0JOIN: JOINING,
    C0LEAVE: LEAVING,
    C0SLOW: SLOW,
    C0GONE: GONE,
    C0SMALL: SMALL,
  };
  fast = await startSlackStandin({ botToken: TOKEN, channels });
});
afterAll(async () => {
  await slow.close();
  await fast.close();
});

const audienceOn = (standin: SlackStandin, clock?: RelayClock): Audience =>
  new Audience(singleWorkspace(standinClient(standin, TOKEN)), undefined, clock);

/** A pending question to anyone in `channel`, due in 10 minutes (the answering service runs on the system clock). */
const toChannel = (channel: string): Question =>
  question({ id: `Q-${channel}`, answerers: { users: [], channel }, deadline: Date.now() + 600_000 });

/** conversations.members calls the stand-in answered since `from` (an index into its calls). */
const pagesSince = (standin: SlackStandin, from: number): number =>
  standin.calls.slice(from).filter((c) => c.method === 'conversations.members').length;

/** A clock whose time the test sets and whose scheduled work runs when the test fires it. */
function handClock(): RelayClock & { at: number; fire(): void } {
  const due: (() => void)[] = [];
  return {
    at: 0,
    now() {
      return this.at;
    },
    schedule: (fn) => {
      due.push(fn);
      return () => due.splice(due.indexOf(fn), 1);
    },
    fire: () => due.splice(0).forEach((fn) => fn()),
  };
}

describe('anyone in a channel', () => {
  it('records the decline of a member listed last of 12,000 within the reply bound, the channel listed when asked', async () => {
    const audience = audienceOn(slow);
    expect(await audience.answerersTo({ channel: 'C0BIG' })).toEqual({ users: [], channel: 'C0BIG' });
    await audience.warm('C0BIG');
    const from = slow.calls.length;
    const replies: Reply[] = [];
    const started = Date.now();
    await answeringOver(toChannel('C0BIG'), audience).act(
      'Q-C0BIG',
      { user: { id: BIG[BIG.length - 1] ?? '' } },
      { kind: 'decline' },
      { reply: (r) => Promise.resolve(void replies.push(r)) },
    );
    expect(replies.map((r) => r.kind)).toEqual(['finished']);
    expect(Date.now() - started).toBeLessThan(REPLY_WITHIN_MS);
    expect(pagesSince(slow, from)).toBe(0);
  });

  it('lists the channel of a server whose policy lets anyone in it answer as its question is asked', async () => {
    const policy = { route: 'channel' as const, channel: 'C0CROWD' };
    const answerers = { requester: false, users: [], usergroups: [], channel: true };
    const client = standinClient(fast, TOKEN);
    const audience = new Audience(singleWorkspace(client), () => ({
      ...DEFAULT_SLACK_POLICY,
      ...policy,
      answerers,
    }));
    const from = fast.calls.length;
    expect(await audience.answerersFor('s', { userId: 'U1' })).toEqual({ users: [], channel: 'C0CROWD' });
    await audience.warm('C0CROWD');
    expect(pagesSince(fast, from)).toBe(3);
    expect(await audience.mayAnswer(toChannel('C0CROWD'), LAST)).toBe(true);
    expect(pagesSince(fast, from)).toBe(3);
  });

  it('pages a channel once for the clicks that come together, a non-member among them', async () => {
    const audience = audienceOn(fast);
    const from = fast.calls.length;
    const clickers = [LAST, CROWD[2_400] ?? '', CROWD[1_200] ?? '', 'UOUTSIDE', LAST];
    const answers = await Promise.all(clickers.map((u) => audience.mayAnswer(toChannel('C0CROWD'), u)));
    expect(answers).toEqual([true, true, true, false, true]);
    expect(pagesSince(fast, from)).toBe(3);
  });

  it('refuses a non-member, and asks Slack nothing more for their clicks right after', async () => {
    const audience = audienceOn(fast);
    await audience.warm('C0CROWD');
    const from = fast.calls.length;
    const clicks = [1, 2, 3].map(() => toChannel('C0CROWD'));
    for (const click of clicks) expect(await audience.mayAnswer(click, 'UOUTSIDE')).toBe(false);
    expect(await audience.mayAnswer(toChannel('C0CROWD'), 'UOUTSIDE')).toBe(false);
    expect(pagesSince(fast, from)).toBe(0);
  });

  it('allows someone who joined after the list was made once the list is 10 s old, paging again once', async () => {
    const clock = handClock();
    const audience = audienceOn(fast, clock);
    await audience.warm('C0JOIN');
    JOINING.push('UNEW');
    const from = fast.calls.length;
    clock.at = 5_000;
    expect(await audience.mayAnswer(toChannel('C0JOIN'), 'UNEW')).toBe(false);
    expect(pagesSince(fast, from)).toBe(0);
    clock.at = 10_000;
    expect(await audience.mayAnswer(toChannel('C0JOIN'), 'UNEW')).toBe(true);
    expect(pagesSince(fast, from)).toBe(3);
    clock.at = 11_000;
    expect(await audience.mayAnswer(toChannel('C0JOIN'), 'UNEW')).toBe(true);
    expect(pagesSince(fast, from)).toBe(3);
  });

  it('refuses someone who left once the list is past its 60 s, Slack answering in time', async () => {
    const clock = handClock();
    const audience = audienceOn(fast, clock);
    await audience.warm('C0LEAVE');
    const leaver = LEAVING.splice(1, 1)[0] ?? '';
    clock.at = 20_000;
    expect(await audience.mayAnswer(toChannel('C0LEAVE'), leaver)).toBe(true);
    clock.at = 61_000;
    expect(await audience.mayAnswer(toChannel('C0LEAVE'), leaver)).toBe(false);
  });

  it('asks Slack on every click in a channel of one page: joining and leaving count at once', async () => {
    const audience = audienceOn(fast);
    await audience.warm('C0SMALL');
    const from = fast.calls.length;
    const leaver = SMALL.splice(1, 1)[0] ?? '';
    SMALL.push('UJOINED');
    expect(await audience.mayAnswer(toChannel('C0SMALL'), leaver)).toBe(false);
    expect(await audience.mayAnswer(toChannel('C0SMALL'), 'UJOINED')).toBe(true);
    expect(pagesSince(fast, from)).toBe(2);
  });

  it('refuses a listed member when Slack refuses to list the channel again past its 60 s', async () => {
    const clock = handClock();
    const audience = audienceOn(fast, clock);
    await audience.warm('C0GONE');
    clock.at = 61_000;
    fast.failNext('conversations.members', 'channel_not_found');
    await expect(audience.mayAnswer(toChannel('C0GONE'), LAST)).rejects.toMatchObject({
      code: 'channel_unlistable',
      cause: { data: { error: 'channel_not_found' } },
    });
  });

  it('allows a listed member from a list past its 60 s while Slack is too slow to confirm, then lists again', async () => {
    const clock = handClock();
    const audience = audienceOn(fast, clock);
    await audience.warm('C0SLOW');
    clock.at = 61_000;
    const held = fast.holdNext('conversations.members');
    let answered: boolean | undefined;
    const click = audience.mayAnswer(toChannel('C0SLOW'), LAST).then((a) => (answered = a));
    await held.arrived;
    clock.fire();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(true);
    held.release();
    await click;
    await audience.warm('C0SLOW');
    const from = fast.calls.length;
    expect(await audience.mayAnswer(toChannel('C0SLOW'), LAST)).toBe(true);
    expect(pagesSince(fast, from)).toBe(0);
  });
});
