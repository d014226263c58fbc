// Every outcome on the card: who answered and when, with the answer unless the server's policy hides it; who
// closed the form; and a click on a card that is over is told so privately, changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = {
  type: 'object',
  properties: {
    env: { type: 'string', title: 'Environment', oneOf: [{ const: 'prod', title: 'Production' }] },
    token: { type: 'string', title: 'API token' },
  },
  required: ['env'],
};

async function openForm(h: Harness, userId: string, card: { channel: string; ts: string }): Promise<string> {
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  await h.standin.waitForCall('views.open', () => h.standin.openViews(userId).length > 0, 10_000);
  const view = h.standin.openViews(userId).at(-1);
  if (!view) throw new Error('no modal open');
  return view.id;
}

function inputs(h: Harness, viewId: string): string[] {
  const blocks = h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[];
  return blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
}

async function answer(h: Harness, userId: string): Promise<{ channel: string; ts: string }> {
  const card = await h.ask(userId, SCHEMA, 'Ship it?');
  const viewId = await openForm(h, userId, card);
  const [env = '', token = ''] = inputs(h, viewId);
  const submit = await h.driver.submitView({
    userId,
    viewId,
    values: { [env]: 'Production', [token]: 'sk-9' },
  });
  expect(submit.body).toBe('');
  expect(await h.toolResult(userId)).toEqual({ action: 'accept', content: { env: 'prod', token: 'sk-9' } });
  return card;
}

const endedBlocks = async (h: Harness, card: { ts: string }): Promise<string> =>
  JSON.stringify(
    (await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts)).args.blocks,
  );

/** A card `userId` declined, once its update shows it. */
async function declined(h: Harness, userId: string) {
  const card = await h.ask(userId, SCHEMA, 'Again?');
  const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_decline' });
  expect(await h.toolResult(userId)).toEqual({ action: 'decline' });
  await endedBlocks(h, card);
  return { card, questionId };
}

describe('outcomes on the card', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('says who answered and when, with the answer (secrets masked), and buttons gone', async () => {
    const card = await answer(h, 'U1');
    const blocks = await endedBlocks(h, card);
    expect(blocks).toMatch(/Answered by <@U1> · <!date\^\d+\^/);
    expect(blocks).toContain('*Environment*: Production');
    expect(blocks).toContain('*API token*: ••••••');
    expect(blocks).not.toContain('sk-9');
    expect(blocks).not.toContain('elicit_respond');
  });

  it('tells a person who clicks a finished card that it is over, and changes nothing', async () => {
    const { card, questionId } = await declined(h, 'U2');
    // A click on the card as it looked before the update (Slack delivers clicks that raced it).
    const stale = await h.driver.send({ payload: staleClick(h, 'U2', card, questionId) });
    expect(stale.status).toBe(200);
    const reply = await h.standin.waitForCall('response_url', (c) =>
      JSON.stringify(c.args).includes('already been declined'),
    );
    expect(reply.args).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(1);
  });

  it('tells them even when the response_url fails for a moment, posting the note again', async () => {
    const { card, questionId } = await declined(h, 'U4');
    h.standin.failNext('response_url', 'internal_error', { status: 503 });
    const click = staleClick(h, 'U4', card, questionId);
    await h.driver.send({ payload: click });
    const sentTo = (c: RecordedCall) => c.args.response_url === new URL(click.response_url).pathname;
    await h.standin.waitForCall('response_url', (c) => c.ok && sentTo(c));
    const tries = h.standin.calls.filter((c) => c.method === 'response_url' && sentTo(c));
    expect(tries.map((c) => c.error ?? 'ok')).toEqual(['internal_error', 'ok']);
    expect(tries[1]?.args.text).toBe('This question has already been declined by <@U4>.');
  });

  it('says who closed the form', async () => {
    const card = await h.ask('U3', SCHEMA, 'Close me');
    const viewId = await openForm(h, 'U3', card);
    await h.driver.closeView({ userId: 'U3', viewId });
    expect(await h.toolResult('U3')).toEqual({ action: 'cancel' });
    expect(await endedBlocks(h, card)).toContain('Closed without answering by <@U3>');
  });
});

describe('a server whose policy hides answers', () => {
  it('shows that it was answered, by whom, but not what', async () => {
    const h = await startHarness({ slack: { showAnswers: false } });
    try {
      const card = await answer(h, 'U1');
      const blocks = await endedBlocks(h, card);
      expect(blocks).toContain('Answered by <@U1>');
      expect(blocks).toContain('The answer is not shown here');
      expect(blocks).not.toContain('Production');
    } finally {
      await h.close();
    }
  });
});

/** A Respond click as Slack sends it, on the card's ts, for a card whose buttons are already gone. */
function staleClick(h: Harness, userId: string, card: { channel: string; ts: string }, questionId: string) {
  const team = { id: h.standin.identity.teamId, domain: 'standin' };
  return {
    type: 'block_actions',
    team,
    user: { id: userId, username: userId, name: userId, team_id: team.id },
    api_app_id: h.standin.identity.appId,
    trigger_id: h.standin.issueTriggerId(userId),
    container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
    channel: { id: card.channel, name: 'directmessage' },
    message: h.standin.messageObject(card.channel, card.ts),
    response_url: h.standin.responseUrl({ channel: card.channel, userId, messageTs: card.ts }),
    actions: [
      {
        type: 'button',
        action_id: 'elicit_respond',
        block_id: 'elicit_actions',
        value: questionId,
        text: { type: 'plain_text', text: 'Respond' },
        action_ts: '1.1',
      },
    ],
  };
}
