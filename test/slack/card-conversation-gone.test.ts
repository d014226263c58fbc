// A question's card in a conversation that stops taking the bot's messages while the question is pending: the
// channel archived (Slack answers a post `is_archived`, an update `is_inactive`), or the bot removed from a
// public channel (`not_in_channel`). Its reminders and its end's update each fail once, unretried, with one warn
// line naming the channel and Slack's code; neither is thrown, so the reminder job does not run again and the
// end of the question (stored and relayed already) is not failed behind it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox, classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { quiet, standinClient } from './standin-client.js';

const TOKEN = 'xoxb-card-conversation-gone';
const BOT = 'U0STANDINBOT';

let standin: SlackStandin;
let outbox: Outbox;
let surface: SlackSurface;
const warned: { fields: Record<string, unknown>; message: string }[] = [];

beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: TOKEN,
    channels: { C0ARCHIVED: ['U1', BOT], C0LEFT: ['U1', BOT] },
  });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix(), logger: quiet, channelPaceMs: 0 });
  const clients = singleWorkspace(standinClient(standin, TOKEN));
  await outbox.start(slackHandler(clients), classifySlackError);
  const logger = {
    warn: (fields: object, message: string) => void warned.push({ fields: { ...fields }, message }),
  };
  surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients), undefined, logger);
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
});

/** A pending question `id` to anyone in `channel`, its card posted there. */
async function posted(id: string, channel: string): Promise<Question> {
  const asked = question({
    id,
    place: { channel },
    answerers: { users: [], channel },
    origin: { userId: channel },
    userId: channel,
    deadline: Date.now() + 60_000,
  });
  const { cards } = await surface.postQuestion(asked);
  const [card] = cards;
  if (!card) throw new Error('no card posted');
  return { ...asked, card };
}

const failedCalls = (method: string, channel: string) =>
  standin.calls.filter((c) => c.method === method && c.args.channel === channel && !c.ok);

describe("a pending question's card whose channel was archived", () => {
  it('fails its reminder once, unretried, in one warn line naming the channel and is_archived', async () => {
    const asked = await posted('QGONE1', 'C0ARCHIVED');
    standin.archive('C0ARCHIVED');
    warned.length = 0;

    await expect(
      surface.remind(asked, 1),
      'the reminder job is not failed (and so not run again)',
    ).resolves.toBe(undefined);

    expect(failedCalls('chat.postMessage', 'C0ARCHIVED').map((c) => c.error)).toEqual(['is_archived']);
    expect(warned.map((w) => w.fields)).toEqual([
      { questionId: 'QGONE1', channel: 'C0ARCHIVED', what: 'reminder', error: 'is_archived' },
    ]);
  });

  it('shows no end there: the update fails once with is_inactive, said in one warn line, and the end stands', async () => {
    const asked = await posted('QGONE2', 'C0LEFT');
    standin.archive('C0LEFT');
    warned.length = 0;
    const ended: Question = {
      ...asked,
      state: 'cancelled',
      reason: 'timed_out',
      outcome: { action: 'cancel' },
    };

    await expect(surface.updateCard(ended, { kind: 'ended' })).resolves.toBe(undefined);

    expect(failedCalls('chat.update', 'C0LEFT').map((c) => c.error)).toEqual(['is_inactive']);
    expect(warned.map((w) => w.fields)).toEqual([
      { questionId: 'QGONE2', channel: 'C0LEFT', what: 'end', error: 'is_inactive' },
    ]);
  });
});
