// The bot's DMs as a long-running replica keeps them: a person's DM once for good, a multi-person DM (an
// automation may name another set of people in each question) only among the ones used last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { DirectMessages } from '../../src/slack/direct-messages.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { standinClient } from './standin-client.js';

const TOKEN = 'xoxb-direct-messages';
let standin: SlackStandin;

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN });
});
afterAll(async () => {
  await standin.close();
});

/** DMs over the stand-in keeping `kept` multi-person DMs, and the conversations.open calls they make. */
function directMessages(kept: number) {
  const from = standin.calls.length;
  const dms = new DirectMessages(singleWorkspace(standinClient(standin, TOKEN)), systemClock, kept);
  const opens = () => standin.calls.slice(from).filter((call) => call.method === 'conversations.open');
  return { dms, opens };
}

const group = (...users: string[]) => ({ mpim: users });

describe('DirectMessages', () => {
  it('forgets the multi-person DM used least recently past its bound, and opens it again when asked', async () => {
    const { dms, opens } = directMessages(2);
    await dms.channelOf(group('U1', 'U2'), undefined);
    await dms.channelOf(group('U3', 'U4'), undefined);
    await dms.channelOf(group('U1', 'U2'), undefined);
    const third = await dms.channelOf(group('U5', 'U6'), undefined);
    expect(opens()).toHaveLength(3);
    // U1+U2 was used after U3+U4: U3+U4 went, U1+U2 stayed.
    await dms.channelOf(group('U1', 'U2'), undefined);
    expect(opens()).toHaveLength(3);
    await dms.channelOf(group('U7', 'U8'), undefined);
    expect(await dms.channelOf(group('U5', 'U6'), undefined)).toBe(third);
    expect(opens()).toHaveLength(5);
  });

  it('keeps the multi-person DMs used lately and every person DM without opening them again', async () => {
    const { dms, opens } = directMessages(2);
    const people = ['U11', 'U12', 'U13', 'U14'];
    for (const person of people) await dms.of(person, undefined);
    await dms.channelOf(group('U11', 'U12'), undefined);
    await dms.channelOf(group('U13', 'U14'), undefined);
    for (const person of people) expect(await dms.of(person, undefined)).toBe(standin.dmChannelOf(person));
    await dms.channelOf(group('U11', 'U12'), undefined);
    await dms.channelOf(group('U13', 'U14'), undefined);
    expect(opens()).toHaveLength(6);
  });
});
