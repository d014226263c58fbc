// Rolling upgrade from 001d570: under `route: dm` with answerers named, 001d570 posted one card, with Respond and
// Decline, in the requester's DM; this release posts one in each answerer's DM too, and the requester's (when
// the answerers leave them out) only watches: no buttons, no reminders. The record's layout did not change
// (cardChannel/cardTs, moreCards), but which card is whose is read from the policy. A question 001d570 recorded
// with its one card is read here as that card's own: reminded in its thread and updated at its end, nothing
// sent to the answerers' DMs it never posted to. (001d570 reading this release's several cards: its surface
// reminds and updates every card of cardsOf, the requester's watching card included; read from its code.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SLACK_POLICY, type SlackPolicy } from '../../src/config/index.js';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox, classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { parseQuestion } from '../../src/store/record.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { quiet, standinClient } from '../slack/standin-client.js';

const TOKEN = 'xoxb-upgrade-dm-cards';
const [REQUESTER, ANSWERER] = ['U0UPGREQ', 'U0UPGANS'];
/** The server's policy: cards in the requester's DM, answered by ANSWERER only. */
const POLICY: SlackPolicy = {
  ...DEFAULT_SLACK_POLICY,
  route: 'dm',
  answerers: { requester: false, users: [ANSWERER], usergroups: [], channel: false },
};

let standin: SlackStandin;
let outbox: Outbox;
let surface: SlackSurface;
const prefix = uniquePrefix();

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN });
  outbox = await Outbox.open({ url: redisUrl(), prefix, logger: quiet });
  const clients = singleWorkspace(standinClient(standin, TOKEN));
  await outbox.start(slackHandler(clients), classifySlackError);
  surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients, () => POLICY));
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
  await deleteUnder(prefix);
});

/**
 * The question's hash as 001d570 left it once its one card was out: created (createdFields and the times), then
 * attachCards' cardChannel and cardTs.
 */
function previousRecord(card: { channel: string; ts: string }, createdAt: number): Record<string, string> {
  return {
    id: 'Q-upg-dm',
    server: 'deploys',
    userId: REQUESTER,
    message: 'Ship release 7?',
    state: 'pending',
    holder: 'old-replica',
    origin: `{"userId":"${REQUESTER}","teamId":"${standin.identity.teamId}"}`,
    answerers: `{"users":["${ANSWERER}"]}`,
    requestedSchema: '{"type":"object","properties":{}}',
    createdAt: String(createdAt),
    deadline: String(createdAt + 600_000),
    reminders: '1',
    cardChannel: card.channel,
    cardTs: card.ts,
  };
}

/** The chat calls made into `channel` after the first `from` calls, by method and thread. */
const chatIn = (channel: string, from: number): string[] =>
  standin.calls
    .slice(from)
    .filter((c) => c.ok && c.method.startsWith('chat.') && c.args.channel === channel)
    .map((c) => `${c.method}${c.args.thread_ts === undefined ? '' : ' in thread'}`);

describe('a route-dm question the previous release recorded with one card', () => {
  it('is reminded and updated on that card in the requester’s DM, and nothing goes to the answerer’s DM', async () => {
    // The card the previous release posted (with Respond and Decline) in the requester's DM.
    const posted = await standinClient(standin, TOKEN).chat.postMessage({
      channel: standin.dmChannelOf(REQUESTER),
      text: 'deploys needs your input: Ship release 7?',
    });
    const card = { channel: String(posted.channel), ts: String(posted.ts) };
    const now = Date.now();
    const read = parseQuestion(previousRecord(card, now));
    if (read === undefined) throw new Error('the record did not parse');
    const from = standin.calls.length;

    await surface.remind(read, now + 300_000);
    const ended: Question = {
      ...read,
      state: 'cancelled',
      reason: 'timed_out',
      outcome: { action: 'cancel' },
    };
    await surface.updateCard(ended, { kind: 'ended' });

    expect(chatIn(card.channel, from)).toEqual(['chat.postMessage in thread', 'chat.update']);
    expect(chatIn(standin.dmChannelOf(ANSWERER), from)).toEqual([]);
  });
});
