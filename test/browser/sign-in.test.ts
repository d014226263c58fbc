// A person connecting a server that needs sign-in (issue #20), in Chromium: the bot (stand-in Slack, real
// Redis) sends them the Connect message; the browser opens its link (the bot's start page, naming whose account
// it connects) and clicks Continue, the OAuth fixture's consent page shows the
// scopes asked for, the person clicks Allow, and the browser lands on the bot's own callback, which says they
// are connected; their waiting call then completes with their token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ACTION } from '../../blocks/index.js';
import { startOAuthServer, type OAuthServer } from '../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/protected-server.js';
import { freePort } from '../system/child.js';
import { startHarness, type Harness } from '../system/harness.js';
import { launchChromium, screenshots, type Browser } from './harness.js';

describe('connecting a server that needs sign-in, in Chromium', { timeout: 90_000 }, () => {
  let oauth: OAuthServer;
  let tracker: ProtectedServer;
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    oauth = await startOAuthServer();
    tracker = await startProtectedServer(oauth);
    // The browser must reach the callback at the public URL, so the bot listens on a port known beforehand.
    const port = await freePort();
    h = await startHarness({
      env: {
        PORT: String(port),
        ELICIT_RELAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
        ELICIT_RELAY_TOKEN_KEY: Buffer.alloc(32, 4).toString('base64'),
      },
      servers: { tracker: { url: tracker.url.href, auth: { mode: 'oauth' } } },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await h.close();
    await tracker.close();
    await oauth.close();
  });

  it('clicks Allow on the consent page, lands on the bot’s callback, and the call completes as them', async ({
    task,
  }) => {
    const shot = screenshots('sign-in', task.name);
    await h.driver.slashCommand({ userId: 'UADA', command: '/mcp', text: 'run tracker whoami {}' });
    const prompt = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => JSON.stringify(c.args.blocks).includes(CONNECT_ACTION),
      30_000,
    );
    const link = /"url":"(http:\/\/127\.0\.0\.1:[^"]+)"/.exec(JSON.stringify(prompt.args.blocks))?.[1];
    const page = await browser.context.newPage();
    await page.goto(link ?? 'about:blank');
    // The bot's start page names whose Slack account the link connects before anyone signs in.
    expect(new URL(page.url()).pathname).toBe('/oauth/mcp/start');
    await expect(page.locator('#owner').innerText()).resolves.toContain('Connect tracker for ');
    await expect(page.locator('#owner').innerText()).resolves.toContain('(<@UADA>, workspace ');
    await shot(page, 'start page');
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(page.locator('#scopes').innerText()).resolves.toBe('mcp');
    await shot(page, 'consent page');
    await page.getByLabel('User').fill('ada@example.com');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.locator('#outcome').waitFor();
    await shot(page, 'connected page');
    expect(new URL(page.url()).pathname).toBe('/oauth/mcp/callback');
    await expect(page.locator('h1').innerText()).resolves.toBe('Connected');
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => JSON.stringify(c.args.blocks).includes('ada@example.com'),
      30_000,
    );
    expect(browser.offHost).toEqual([]);
    await page.close();
  });
});
