// URL mode (MCP 2025-11-25): the card shows the link, the click on it is the person's consent, and the
// server gets accept without content; decline and unsafe links behave as the spec asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const LINK = {
  message: 'Connect your GitHub account',
  url: 'https://github.com/login/oauth/authorize?state=s1',
  elicitationId: 'e-1',
};

describe('URL-mode elicitation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('shows the link without unfurling and relays accept (no content) when the person opens it', async () => {
    const card = await h.run('U1', 'ask_url', LINK);
    const post = h.standin.calls.find(
      (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('elicit_url_open'),
    );
    // Form-encoded on the wire, as WebClient sends it.
    expect(post?.args).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    expect(JSON.stringify(post?.args.blocks)).toContain('github.com');
    expect((await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_url_open' })).status).toBe(
      200,
    );
    expect(await h.toolResult('U1')).toEqual({ action: 'accept' });
    const ended = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts);
    expect(JSON.stringify(ended.args.blocks)).toContain('<@U1>');
  });

  it('shows on the card that the step is done once the server sends notifications/elicitation/complete', async () => {
    const card = await h.run('U4', 'ask_url_then_complete', { ...LINK, elicitationId: 'e-4' });
    await h.driver.clickButton({ userId: 'U4', ...card, actionId: 'elicit_url_open' });
    expect(await h.toolResult('U4')).toEqual({ action: 'accept' });
    const done = await h.standin.waitForCall(
      'chat.update',
      (c) => c.ok && c.args.ts === card.ts && JSON.stringify(c.args.blocks).includes('Done:'),
      15_000,
    );
    expect(JSON.stringify(done.args.blocks)).toContain('says the step behind the link is complete');
    expect(JSON.stringify(done.args.blocks)).not.toContain('elicit_url_open');
  });

  it('relays decline', async () => {
    const card = await h.run('U2', 'ask_url', { ...LINK, elicitationId: 'e-2' });
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U2')).toEqual({ action: 'decline' });
  });

  it('refuses a link that is not http(s) with -32602 and never shows it', async () => {
    await h.driver.slashCommand({
      userId: 'U3',
      command: '/mcp',
      text: `run fixture ask_url ${JSON.stringify({ ...LINK, url: 'javascript:alert(1)', elicitationId: 'e-3' })}`,
    });
    expect(await h.toolResult('U3')).toMatchObject({ error: { code: -32602 } });
    const posted = JSON.stringify(h.standin.messagesIn(h.standin.dmChannelOf('U3')));
    expect(posted).not.toContain('elicit_url_open');
  });
});
