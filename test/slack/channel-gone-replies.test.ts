// A click on the card of a question asked of anyone in a channel whose members Slack no longer lists: the
// channel deleted (conversations.members answers channel_not_found), archived (is_archived), or a private one the
// bot left (not_in_channel). No retry gets past that, so the person is told so, and who can still answer (the
// people the question names, from their App Home), instead of "NOT recorded (a temporary problem on our side),
// try again". A passing refusal (a 429 longer than the click's reply bound) keeps "try again".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/answering/service.js';
import type { Answerers, Question } from '../../src/relay/types.js';
import { clickNote, hasNote } from '../../src/slack/answer-replies.js';
import { Audience } from '../../src/slack/audience.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { answeringOver } from '../support/answering.js';
import { question } from '../support/question.js';
import { standinClient } from './standin-client.js';

const TOKEN = 'xoxb-channel-gone';
const MEMBER = 'UMEMBER';

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: TOKEN,
    channels: { C0ARCHIVED: ['U0STANDINBOT', MEMBER], C0LEFT: [MEMBER], C0BUSY: ['U0STANDINBOT', MEMBER] },
  });
});
afterAll(() => standin.close());

/** A pending question to anyone in `channel` (and to `named` too), due in 10 minutes. */
const toChannel = (channel: string, named: Omit<Answerers, 'channel'> = { users: [] }): Question =>
  question({ id: `Q-${channel}`, answerers: { ...named, channel }, deadline: Date.now() + 600_000 });

/** The one reply to `userId`'s decline of `stored`, decided with a fresh audience (no list kept). */
async function declineOf(stored: Question, userId: string): Promise<Reply> {
  const audience = new Audience(singleWorkspace(standinClient(standin, TOKEN)));
  const answering = answeringOver(stored, audience);
  const replies: Reply[] = [];
  const reply = (r: Reply) => Promise.resolve(void replies.push(r));
  await answering
    .act(stored.id, { user: { id: userId } }, { kind: 'decline' }, { reply })
    .catch(() => undefined);
  expect(replies).toHaveLength(1);
  return replies[0] as Reply;
}

/** The private note the person gets under the card for `reply`, in `locale`. */
function noteOf(reply: Reply, locale: 'en' | 'zh-CN' = 'en'): string {
  if (!hasNote(reply)) throw new Error(`no note for a ${reply.kind} reply`);
  return clickNote(reply, locale);
}

describe('a click on a channel question whose members Slack no longer lists', () => {
  it('tells a deleted channel’s member that trying again will not help, and that nobody can answer it now', async () => {
    const note = noteOf(await declineOf(toChannel('C0DELETED'), MEMBER));

    expect(note).toBe(
      'That was NOT recorded, and trying again will not help: this app can no longer check who is in <#C0DELETED> ' +
        '(the channel was archived or deleted, or the app was removed from it). Nobody can answer it any more; it ' +
        'stays open until its time runs out or it is withdrawn. Ask whoever needs the answer to ask again ' +
        'somewhere this app can reach.',
    );
  });

  it('says so for an archived channel and for a private one the bot left, in English and Chinese', async () => {
    standin.failNext('conversations.members', 'is_archived', { when: (a) => a.channel === 'C0ARCHIVED' });
    const archived = await declineOf(toChannel('C0ARCHIVED'), MEMBER);
    standin.failNext('conversations.members', 'not_in_channel', { when: (a) => a.channel === 'C0LEFT' });
    const left = await declineOf(toChannel('C0LEFT'), MEMBER);

    expect(noteOf(archived)).toContain('trying again will not help');
    expect(noteOf(archived)).not.toContain('temporary');
    expect(noteOf(left, 'zh-CN')).toBe(
      '此操作未能记录，重试也无济于事：本应用已无法查看 <#C0LEFT> 的成员（该频道已归档或删除，或本应用已被移出该频道）。' +
        '现在已无人能回答此问题；它会保持待回答状态，直到超时或被撤回。请让需要答案的人在本应用能访问的地方重新提问。',
    );
  });

  it('names the people the question names as the ones who can still answer, who still can', async () => {
    const named = { users: ['U1'], groups: [{ id: 'S0OPS', members: ['UOPS'] }] };
    const stored = toChannel('C0DELETED', named);

    expect(noteOf(await declineOf(stored, MEMBER))).toContain(
      "Only <@U1> or members of <!subteam^S0OPS> can still answer it, from the app's Home tab.",
    );
    expect((await declineOf(stored, 'UOPS')).kind).toBe('finished');
  });

  it('keeps "try again" for a passing refusal: a 429 longer than the click may wait', async () => {
    standin.failNext('conversations.members', 'ratelimited', {
      retryAfterSec: 5,
      when: (a) => a.channel === 'C0BUSY',
    });
    const reply = await declineOf(toChannel('C0BUSY'), MEMBER);

    expect(reply.kind).toBe('not_recorded');
    expect(noteOf(reply)).toBe(
      'That was NOT recorded (a temporary problem on our side). Please try again in a moment.',
    );
  });
});
