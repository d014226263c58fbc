// A 2026-07-28 server (test/fixtures/mrtr-server.ts, its own process, stateless Streamable HTTP) beside the
// 2025 fixture in one bot: /mcp servers shows the revision each negotiated, its tools are listed, and a tool
// that asks in two `input_required` rounds gets one card per round, then its result, through Slack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { resultText } from '../support/slack-text.js';
import { inputLabelled, openForm } from './harness.js';
import { postedInDm, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

describe('a 2026-07-28 (MRTR) server and a 2025 server in one bot', () => {
  let h: MrtrHarness;
  beforeAll(async () => {
    h = await startMrtrHarness({
      // The `expiring` tool's requestState is born expired, so its retry is always refused (-32602).
      fixtureEnv: { REQUEST_STATE_TTL_S: '-1' },
      moreServers: (url) => ({ limited: { url, elicitation: { maxRounds: 1 } } }),
    });
  }, 60_000);
  afterAll(() => h.close());

  const command = (userId: string, text: string) => h.driver.slashCommand({ userId, command: '/mcp', text });
  const reply = (marker: string): Promise<RecordedCall> =>
    h.standin.waitForCall('response_url', (c) => JSON.stringify(c.args).includes(marker), 15_000);
  const inDm = (userId: string, match: (c: RecordedCall) => boolean) => postedInDm(h, userId, match);
  it('lists the 2026 server’s tools, and /mcp servers names the revision each server negotiated', async () => {
    await command('U1', 'tools modern');
    expect(JSON.stringify((await reply('Tools of modern')).args)).toContain('two_rounds');
    await command('U1', 'tools fixture');
    await reply('Tools of fixture');
    await command('U1', 'servers');
    const servers = String((await reply('MCP 2026-07-28')).args.text);
    expect(servers).toContain('`fixture` connected, MCP 2025-11-25');
    expect(servers).toContain('`modern` connected, MCP 2026-07-28');
  });

  it('asks each of two rounds on its own card and posts the result once the second is answered', async () => {
    const first = await h.run('U2', 'two_rounds', {}, 'modern');
    const nameForm = await openForm(h, 'U2', first);
    await h.driver.submitView({
      userId: 'U2',
      viewId: nameForm,
      values: { [inputLabelled(h, nameForm, 'Name')]: 'Ada' },
    });
    const second = await inDm('U2', (c) =>
      JSON.stringify(c.args.blocks ?? '').includes('Send a greeting to Ada?'),
    );
    const channel = String(second.args.channel);
    const posted = h.standin
      .messagesIn(channel)
      .findLast((m) => JSON.stringify(m.blocks ?? '').includes('Send a greeting'));
    const card = { channel, ts: posted?.ts ?? '' };
    const confirmForm = await openForm(h, 'U2', card);
    await h.driver.submitView({
      userId: 'U2',
      viewId: confirmForm,
      values: { [inputLabelled(h, confirmForm, 'Send it?')]: 'Yes' },
    });
    const result = await inDm('U2', (c) => resultText(c.args.blocks).includes('Hello, Ada!'));
    expect(resultText(result.args.blocks)).toContain('Hello, Ada!');
  });

  it('posts the server’s answer to a declined round as the result', async () => {
    const card = await h.run('U3', 'two_rounds', {}, 'modern');
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    await inDm('U3', (c) => resultText(c.args.blocks).includes('name declined in round 1'));
  });

  it('asks a 2026 URL-mode round on a link card whose click is consent, and the call then finishes', async () => {
    const card = await h.run('U4', 'url_round', {}, 'modern');
    const post = h.standin.calls.find(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === card.channel &&
        JSON.stringify(c.args).includes('elicit_url_open'),
    );
    expect(JSON.stringify(post?.args.blocks)).toContain('example.com');
    await h.driver.clickButton({ userId: 'U4', ...card, actionId: 'elicit_url_open' });
    await inDm('U4', (c) => resultText(c.args.blocks).includes('account linked'));
  });

  /**
   * `expiring` run by `userId` and its round answered: the call fails as expired, with a Start again button.
   * Resolves with that message's text, where it is, and a wait for the call's questions asked there to be two.
   */
  async function expiredRun(userId: string) {
    const card = await h.run(userId, 'expiring', {}, 'modern');
    const form = await openForm(h, userId, card);
    await h.driver.submitView({
      userId,
      viewId: form,
      values: { [inputLabelled(h, form, 'Send it?')]: 'Yes' },
    });
    const hasButton = (blocks: unknown) => JSON.stringify(blocks ?? '').includes('Start again');
    const expired = await inDm(userId, (c) => hasButton(c.args.blocks));
    const channel = String(expired.args.channel);
    const ts = h.standin.messagesIn(channel).find((m) => hasButton(m.blocks))?.ts ?? '';
    const cardsAsked = () =>
      h.standin.messagesIn(channel).filter((m) => JSON.stringify(m.blocks ?? '').includes('Still there?'));
    const askedAgain = () =>
      h.standin.waitForCall('chat.postMessage', () => cardsAsked().length === 2, 15_000);
    return { text: resultText(expired.args.blocks), place: { channel, ts }, askedAgain, cardsAsked };
  }

  it('explains a round whose requestState expired, and its Start again button runs the call anew', async () => {
    const run = await expiredRun('U6');
    expect(run.text).toContain('no longer accepts the answers to round 1 of expiring');
    await h.driver.clickButton({ userId: 'U6', ...run.place, actionId: 'mcp_retry' });
    await run.askedAgain();
    expect(run.cardsAsked()).toHaveLength(2);
  });

  it('runs the call again on Start again even when Slack refuses its "Retrying…" message', async () => {
    const run = await expiredRun('U8');
    // Slack no longer takes posts to this response_url (more than five, or older than 30 min): not tried again.
    h.standin.failNext('response_url', 'expired_url', { status: 404 });
    await h.driver.clickButton({ userId: 'U8', ...run.place, actionId: 'mcp_retry' });
    await run.askedAgain();
    const refused = h.standin.calls.filter((c) => c.method === 'response_url' && c.error === 'expired_url');
    expect(refused).toHaveLength(1);
  });

  it('fails a call whose server still asks after maxRounds, saying so', async () => {
    const card = await h.run('U7', 'endless', {}, 'limited');
    await h.driver.clickButton({ userId: 'U7', ...card, actionId: 'elicit_decline' });
    const failed = await inDm('U7', (c) => resultText(c.args.blocks).includes('the most allowed'));
    expect(resultText(failed.args.blocks)).toContain(
      'endless on limited still asked for input after 1 round,',
    );
  });
});
