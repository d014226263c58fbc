// The MCP SDK's own `elicitationFormExample` server (Streamable HTTP, a child process) behind the whole
// bot: the password field raises the secret warning, a field the server would reject is stopped in the
// form, and the chained questions of create_event each get their own card, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../support/slack-text.js';
import { startFormExample, type HttpPeer } from '../mcp/peers.js';
import { inputLabelled, startHarness, type Harness } from './harness.js';

type Block = { type: string; block_id: string; label?: { text: string }; elements?: { text?: string }[] };

const blocksOf = (h: Harness, viewId: string): Block[] =>
  (h.standin.view(viewId)?.view as { blocks: Block[] }).blocks;

async function openForm(h: Harness, userId: string, card: { channel: string; ts: string }): Promise<string> {
  const before = new Set(h.standin.openViews(userId).map((v) => v.id));
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  await h.standin.waitForCall(
    'views.open',
    (c) => c.ok && h.standin.openViews(userId).some((v) => !before.has(v.id)),
  );
  const view = h.standin.openViews(userId).find((v) => !before.has(v.id));
  if (!view) throw new Error('no modal open');
  return view.id;
}

/** The text of the latest tool-result message in the person's DM (posted after its questions ended). */
async function toolResultText(h: Harness, userId: string, match: RegExp): Promise<string> {
  const channel = h.standin.dmChannelOf(userId);
  const call = await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === channel && match.test(resultText(c.args.blocks)),
    15_000,
  );
  return resultText(call.args.blocks);
}

describe('the SDK example server elicitationFormExample, through Slack', () => {
  let peer: HttpPeer;
  let h: Harness;
  beforeAll(async () => {
    peer = await startFormExample();
    h = await startHarness({ servers: { forms: { url: peer.url } } });
  });
  afterAll(async () => {
    await h.close();
    await peer.stop();
  });

  it('warns about the password field, stops an email the server would reject, then registers', async () => {
    const card = await h.run('U1', 'register_user', {}, 'forms');
    const viewId = await openForm(h, 'U1', card);
    expect(JSON.stringify(blocksOf(h, viewId))).toContain('looks secret: Password');

    const answers = {
      [inputLabelled(h, viewId, 'Username')]: 'ada',
      [inputLabelled(h, viewId, 'Email')]: 'not-an-email',
      [inputLabelled(h, viewId, 'Password')]: 'correct horse',
      [inputLabelled(h, viewId, 'Interests')]: ['backend', 'ai'],
    };
    const refused = await h.driver.submitView({ userId: 'U1', viewId, values: answers });
    const errors = (refused.json as { errors?: Record<string, string> }).errors ?? {};
    expect(Object.keys(errors)).toEqual([inputLabelled(h, viewId, 'Email')]);

    const email = inputLabelled(h, viewId, 'Email');
    const accepted = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { ...answers, [email]: 'ada@example.com' },
    });
    expect(accepted.status).toBe(200);
    const text = await toolResultText(h, 'U1', /Registration/);
    expect(text).toContain('Registration successful!');
    expect(text).toContain('Username: ada');
    expect(text).toContain('Email: ada@example.com');
    // The newsletter checkbox was left alone: its schema default (false) is what the server got.
    expect(text).toContain('Newsletter: No');
  });

  it('asks the chained questions of create_event one after the other, each on its own card', async () => {
    const first = await h.run('U2', 'create_event', {}, 'forms');
    const step1 = await openForm(h, 'U2', first);
    await h.driver.submitView({
      userId: 'U2',
      viewId: step1,
      values: { [inputLabelled(h, step1, 'Event Title')]: 'Launch' },
    });

    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === first.channel && JSON.stringify(c.args).includes('Step 2'),
      15_000,
    );
    const posted = h.standin.messagesIn(first.channel).findLast((m) => JSON.stringify(m).includes('Step 2'));
    const secondCard = { channel: first.channel, ts: posted?.ts ?? '' };
    expect(secondCard.ts).not.toBe(first.ts);
    const step2 = await openForm(h, 'U2', secondCard);
    await h.driver.submitView({
      userId: 'U2',
      viewId: step2,
      values: {
        [inputLabelled(h, step2, 'Date')]: '2026-12-24',
        [inputLabelled(h, step2, 'Start Time')]: '18:00',
        [inputLabelled(h, step2, 'Duration')]: '90',
      },
    });
    const text = await toolResultText(h, 'U2', /Event created/);
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({
      title: 'Launch',
      date: '2026-12-24',
      startTime: '18:00',
      duration: 90,
    });
  });
});
