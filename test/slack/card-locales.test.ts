// Whose language a question's cards, their reminders and their ended updates are in: a card in one person's
// DM is in that person's language, whoever asked; a card in a conversation several people share (here a
// multi-person DM) is in the language of the question's person, as before (an API question's: the first person
// it names, since an API client has no Slack language).
// Each reader's locale is looked up once (users.info, cached): not again for each reminder or update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox, classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type RecordedCall, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { quiet, standinClient } from './standin-client.js';

const TOKEN = 'xoxb-card-locales';
const CHINESE = /[\u4e00-\u9fff]/;
/** Eight people whose Slack is in English, and three whose Slack is in Chinese. */
const EIGHT = ['U0EN1', 'U0EN2', 'U0EN3', 'U0EN4', 'U0EN5', 'U0EN6', 'U0EN7', 'U0EN8'];
const [NINTH, FIRST, REQUESTER] = ['U0ZHNINTH', 'U0ZHFIRST', 'U0ZHREQ'];
const chinese = { name: 'mei', realName: 'Mei', locale: 'zh-CN' };

let standin: SlackStandin;
let outbox: Outbox;
let surface: SlackSurface;
const prefix = uniquePrefix();

beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: TOKEN,
    users: { [NINTH]: chinese, [FIRST]: chinese, [REQUESTER]: chinese },
  });
  outbox = await Outbox.open({ url: redisUrl(), prefix, logger: quiet });
  const clients = singleWorkspace(standinClient(standin, TOKEN));
  await outbox.start(slackHandler(clients), classifySlackError);
  surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients));
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
  await deleteUnder(prefix);
});

/** An API client's question to `people` (the card's place as the API's intake makes it). */
function apiQuestion(id: string, people: string[], place: Question['place']): Question {
  const now = Date.now();
  return question({
    id,
    server: 'api:ci-pipeline',
    userId: people[0] ?? '',
    origin: { userId: 'ci-pipeline' },
    answerers: { users: people },
    place,
    source: 'api',
    createdAt: now,
    deadline: now + 60_000,
  });
}

/** Posts its cards, then sends a reminder and the ended update: the question as it is then, with its cards. */
async function askRemindEnd(asked: Question): Promise<Question> {
  const { cards } = await surface.postQuestion(asked);
  const [card, ...moreCards] = cards;
  const posted = { ...asked, ...(card ? { card } : {}), ...(moreCards.length > 0 ? { moreCards } : {}) };
  await surface.remind(posted, asked.createdAt + 30_000);
  const ended: Question = {
    ...posted,
    state: 'cancelled',
    reason: 'timed_out',
    outcome: { action: 'cancel' },
  };
  await surface.updateCard(ended, { kind: 'ended' });
  return posted;
}

/** Every text the bot sent into `channel` (cards, reminders, updates), in order. */
const sentTo = (channel: string): string[] =>
  standin.calls
    .filter((c: RecordedCall) => c.ok && c.args.channel === channel && c.method.startsWith('chat.'))
    .map((c) => `${c.method} ${JSON.stringify(c.args.blocks)}`);

const usersInfo = (userId: string): number =>
  standin.calls.filter((c) => c.method === 'users.info' && c.args.user === userId).length;

describe("a question's cards, reminders and ended updates", () => {
  it("in one person's own DM are in that person's language, not the first asked person's, when nine are asked", async () => {
    // Nine people: a multi-person DM of eight, and the ninth's own DM.
    const people = [...EIGHT, NINTH];
    const asked = await askRemindEnd(apiQuestion('Q-nine', people, { mpims: [EIGHT, [NINTH]] }));
    const dm = sentTo(standin.dmChannelOf(NINTH));
    expect(dm.map((sent) => sent.split(' ')[0])).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
    ]);
    for (const sent of dm)
      expect(sent, `the ninth person's DM must be in their language: ${sent}`).toMatch(CHINESE);
    const shared = sentTo(asked.card?.channel ?? '');
    expect(shared).toHaveLength(3);
    for (const sent of shared) expect(sent).not.toMatch(CHINESE);
    // One users.info for the DM's person, whatever was sent there.
    expect(usersInfo(NINTH)).toBe(1);
  });

  it('in a multi-person DM are in the language of the first person an API question names', async () => {
    const asked = await askRemindEnd(apiQuestion('Q-two', [FIRST, 'U0EN1'], { mpim: [FIRST, 'U0EN1'] }));
    const shared = sentTo(asked.card?.channel ?? '');
    expect(shared).toHaveLength(3);
    for (const sent of shared) expect(sent, `the first person's language: ${sent}`).toMatch(CHINESE);
  });

  it("in the requester's DM are in the requester's language, looked up once", async () => {
    const now = Date.now();
    const own = question({
      id: 'Q-own',
      userId: REQUESTER,
      origin: { userId: REQUESTER },
      createdAt: now,
      deadline: now + 60_000,
    });
    await askRemindEnd(own);
    const dm = sentTo(standin.dmChannelOf(REQUESTER));
    expect(dm).toHaveLength(3);
    for (const sent of dm) expect(sent).toMatch(CHINESE);
    expect(usersInfo(REQUESTER)).toBe(1);
  });

  it("under route dm, in each answerer's own DM in their language; the requester's, who may not answer, in theirs", async () => {
    const now = Date.now();
    const others = question({
      id: 'Q-others',
      userId: REQUESTER,
      origin: { userId: REQUESTER },
      answerers: { users: [FIRST, 'U0EN1'] },
      createdAt: now,
      deadline: now + 60_000,
    });
    const requesterDm = standin.dmChannelOf(REQUESTER);
    const earlier = sentTo(requesterDm).length;
    await askRemindEnd(others);
    // The card without buttons (no reminder: nothing to answer) and its ended update.
    const requester = sentTo(requesterDm).slice(earlier);
    expect(requester.map((sent) => sent.split(' ')[0])).toEqual(['chat.postMessage', 'chat.update']);
    for (const sent of requester) expect(sent).toMatch(CHINESE);
    expect(requester[0]).not.toContain('elicit_respond');
    for (const [person, language] of [
      [FIRST, CHINESE],
      ['U0EN1', /^[^\u4e00-\u9fff]*$/],
    ] as const) {
      const dm = sentTo(standin.dmChannelOf(person));
      expect(dm.map((sent) => sent.split(' ')[0])).toEqual([
        'chat.postMessage',
        'chat.postMessage',
        'chat.update',
      ]);
      for (const sent of dm) expect(sent).toMatch(language);
    }
  });
});
