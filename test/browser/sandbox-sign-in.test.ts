// Signing in to a server that needs it, on the sandbox page in Chromium (issue #20 item 5): the sandbox runs
// as `npm start` runs it, with its local authorization server and the tracker (auth: oauth). Ada runs the
// tracker's tool, gets the Connect message in her DM, clicks Connect (the bot's start page names her; she signs
// in with Slack on the stand-in's page, and the bot, seeing the link is hers, sends her on), approves on the local
// consent page, lands
// on the bot's callback at the page's own address, and the call completes as the account she signed in with;
// the App Home lists the connection, and /mcp disconnect removes it. No page leaves this machine.
import { describe, expect, it } from 'vitest';
import { ADA, sandboxPage, screenshots, typeCommand } from './harness.js';

const ACCOUNT = 'ada@example.com';

describe('the sandbox page signing in to the tracker, in Chromium', { timeout: 120_000 }, () => {
  const the = sandboxPage();

  it('runs a tool, connects on the local consent page, and the call completes with her token; disconnect removes it', async ({
    task,
  }) => {
    const shot = screenshots('sandbox-sign-in', task.name);
    const page = the.ada;
    await typeCommand(page, '/mcp run tracker hello {}');
    await page
      .getByRole('listitem')
      .filter({ hasText: `${ADA.name} (you)` })
      .click();
    const prompt = page
      .getByRole('article')
      .filter({ hasText: 'tracker' })
      .filter({
        has: page.getByRole('button', { name: 'Connect' }),
      });
    await prompt.waitFor();
    await shot(page, 'connect message');

    const opened = the.browser.context.waitForEvent('page');
    await prompt.getByRole('button', { name: 'Connect' }).click();
    const consent = await opened;
    // The bot's start page names whose Slack account the link connects and asks her to sign in with Slack (the
    // stand-in's page); only as herself does she go on to the consent page.
    await expect(consent.locator('#owner').innerText()).resolves.toContain(`(<@${ADA.id}>, workspace `);
    await shot(consent, 'start page');
    const startPage = consent.url();
    await consent.getByRole('link', { name: 'Sign in with Slack' }).click();
    await shot(consent, 'sign in with slack');
    // Signed in with Slack as Mei, the link is refused, naming both; it is left usable for Ada.
    await consent.getByRole('button', { name: 'Sign in as 王美 Mei' }).click();
    await expect(consent.locator('#outcome').innerText()).resolves.toBe(
      `This link was made for <@${ADA.id}>; you signed in as <@U0MEI>. Ask for your own with /mcp connect.`,
    );
    await shot(consent, 'refused as mei');
    await consent.goto(startPage);
    await consent.getByRole('link', { name: 'Sign in with Slack' }).click();
    await consent.getByRole('button', { name: `Sign in as ${ADA.name}` }).click();
    await consent.getByRole('button', { name: 'Allow' }).waitFor();
    expect(['127.0.0.1', 'localhost']).toContain(new URL(consent.url()).hostname);
    await expect(consent.locator('#scopes').innerText()).resolves.toBe('mcp');
    await consent.getByLabel('User').fill(ACCOUNT);
    await shot(consent, 'local consent page');
    await consent.getByRole('button', { name: 'Allow' }).click();
    await consent.locator('#outcome').waitFor();
    await shot(consent, 'back on the callback');
    const landed = new URL(consent.url());
    expect(landed.origin).toBe(new URL(the.sandbox.url).origin);
    expect(landed.pathname).toBe('/oauth/mcp/callback');
    await expect(consent.locator('h1').innerText()).resolves.toBe('Connected');
    await consent.close();

    await page.getByText(`Hello, ${ACCOUNT}! You are signed in to the tracker.`).waitFor();
    await page.getByText('Connected to tracker').waitFor();
    await shot(page, 'call completed as her account');

    await page.getByRole('button', { name: 'App Home' }).click();
    const home = page.locator('#home');
    const connection = home
      .locator('.block')
      .filter({ hasText: 'tracker' })
      .filter({
        has: page.getByRole('button', { name: 'Disconnect' }),
      });
    await connection.waitFor();
    expect(await connection.innerText()).toContain('mcp');
    await shot(page, 'home lists the connection');

    await page
      .getByRole('listitem')
      .filter({ hasText: `${ADA.name} (you)` })
      .click();
    await typeCommand(page, '/mcp disconnect tracker');
    await page.getByText('Disconnected from tracker').waitFor();
    await shot(page, 'disconnected');
    await page.getByRole('button', { name: 'App Home' }).click();
    await home.getByText('You are not connected to any server that needs sign-in.').waitFor();
    await shot(page, 'home without the connection');
  });
});
