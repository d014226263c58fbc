// App Home as each person's inbox, end to end: the Slack stand-in, the bot on real Redis, fixture MCP servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { repo: { type: 'string', title: 'Repository' } } };

type Block = { type: string; elements?: { action_id?: string; value?: string; text?: string }[] };

/** The question ids of the Respond buttons on a published Home view, top to bottom. */
const pendingIds = (call: RecordedCall): string[] =>
  ((call.args.view as { blocks: Block[] }).blocks ?? [])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.action_id === 'elicit_respond')
    .map((e) => e.value ?? '');

/** The recent-answers lines of a published Home view (context blocks after the second header). */
const recentLines = (call: RecordedCall): string[] => {
  const blocks = (call.args.view as { blocks: Block[] }).blocks;
  const start = blocks.findLastIndex((b) => b.type === 'header');
  return blocks
    .slice(start + 1)
    .map((b) => b.elements?.[0]?.text ?? '')
    .filter((text) => text !== 'No answers yet.');
};

describe('App Home inbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ moreFixtures: { quick: { timeout: '1m' } } });
  });
  afterAll(async () => {
    await h.close();
  });

  const published = (userId: string, matches: (call: RecordedCall) => boolean) =>
    h.standin.waitForCall('views.publish', (c) => c.ok && c.args.user_id === userId && matches(c), 15_000);

  // First, while no question's refresh is under way: the 429 is meant for this person's publish.
  it('publishes the Home a person opened after a 429, once its Retry-After has passed', async () => {
    h.standin.failNext('views.publish', 'ratelimited', { retryAfterSec: 1 });
    expect((await h.driver.openHome('UH5')).status).toBe(200);
    await published('UH5', (c) => JSON.stringify(c.args.view).includes('Nothing is waiting for you'));
    const publishes = h.standin.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === 'UH5');
    expect(publishes.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
  });

  it('shows a person’s pending questions by deadline, and their answers once they respond or decline', async () => {
    expect((await h.driver.openHome('UH1')).status).toBe(200);
    await published('UH1', (c) => JSON.stringify(c.args.view).includes('Nothing is waiting for you'));

    const late = await h.ask('UH1', SCHEMA, 'Which repository?');
    const lateId = questionIdOnCard(h.standin.message(late.channel, late.ts)?.blocks);
    await published('UH1', (c) => pendingIds(c).join() === lateId);
    // Asked second, but its server gives one minute instead of two: it comes first.
    const soon = await h.run('UH1', 'ask', { message: 'Ship it?', schema: SCHEMA }, 'quick');
    const soonId = questionIdOnCard(h.standin.message(soon.channel, soon.ts)?.blocks);
    await published('UH1', (c) => pendingIds(c).join() === [soonId, lateId].join());

    expect(
      (await h.driver.clickHomeButton({ userId: 'UH1', actionId: 'elicit_decline', value: soonId })).status,
    ).toBe(200);
    expect(await h.toolResult('UH1')).toEqual({ action: 'decline' });
    const afterDecline = await published(
      'UH1',
      (c) => pendingIds(c).join() === lateId && recentLines(c).length === 1,
    );
    expect(recentLines(afterDecline)[0]).toMatch(/\*quick\*: Declined · <!date\^\d+\^/);

    await h.driver.clickHomeButton({ userId: 'UH1', actionId: 'elicit_respond', value: lateId });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('UH1').length > 0);
    const [modal] = h.standin.openViews('UH1');
    const repoBlock = (modal?.view.blocks as { block_id: string; type: string }[]).find(
      (b) => b.type === 'input',
    );
    await h.driver.submitView({
      userId: 'UH1',
      viewId: modal?.id ?? '',
      values: { [repoBlock?.block_id ?? '']: 'elicit-relay' },
    });
    expect(await h.toolResult('UH1')).toEqual({ action: 'accept', content: { repo: 'elicit-relay' } });
    const done = await published('UH1', (c) => pendingIds(c).length === 0 && recentLines(c).length === 2);
    expect(recentLines(done)).toEqual([
      expect.stringContaining('*fixture*: Answered'),
      expect.stringContaining('*quick*: Declined'),
    ]);
  });

  it('answers a click on a Home button whose question is gone by refreshing the Home', async () => {
    // UH3 has no questions, so every publish for them comes from opening the Home or from the click below.
    await h.driver.openHome('UH3');
    await published('UH3', () => true);
    const home = h.standin.homeOf('UH3');
    const publishes = () =>
      h.standin.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === 'UH3');
    expect(publishes()).toHaveLength(1);

    // A Decline from an older render of the Home, for a question that has ended and expired since.
    const delivery = await h.driver.send({
      payload: {
        type: 'block_actions',
        team: { id: h.standin.identity.teamId, domain: h.standin.identity.teamDomain },
        user: { id: 'UH3', username: 'uh3', name: 'uh3', team_id: h.standin.identity.teamId },
        api_app_id: h.standin.identity.appId,
        token: 'standin-verification-token',
        container: { type: 'view', view_id: home?.id },
        trigger_id: h.standin.issueTriggerId('UH3'),
        view: home,
        actions: [
          {
            type: 'button',
            action_id: 'elicit_decline',
            block_id: 'home_q0',
            value: 'q-gone',
            action_ts: '1.2',
          },
        ],
      },
    });
    expect(delivery.status).toBe(200);
    await h.standin.waitForCall(
      'views.publish',
      (c) => c.args.user_id === 'UH3' && publishes().indexOf(c) === 1,
    );
  });
});
