// App Home on the sandbox page, in Chromium: a question waiting for the person is listed there with its
// buttons; answering from the Home opens the same form, and the Home then lists the answer instead.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  type Browser,
  type SandboxProcess,
  launchChromium,
  openAs,
  screenshots,
  startSandboxProcess,
} from './harness.js';

const ADA = { id: 'U0ADA', name: 'Ada Lovelace' };

async function runCommand(page: Page, command: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(command);
  await box.press('Enter');
}

describe('App Home on the sandbox page, in Chromium', { timeout: 90_000 }, () => {
  let sandbox: SandboxProcess;
  let browser: Browser;
  let ada: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    sandbox = await startSandboxProcess();
    ada = await openAs(browser, sandbox.url, ADA.id, ADA.name);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });
  afterEach(() => {
    expect(browser.offHost).toEqual([]);
  });

  it('lists a waiting question with Respond, opens its form from there, and then shows the answer', async ({
    task,
  }) => {
    const shot = screenshots('home', task.name);
    await runCommand(ada, '/mcp run approvals deploy {"service": "billing", "env": "staging"}');
    await ada.getByRole('article').filter({ hasText: 'Deploy billing to staging?' }).first().waitFor();

    await ada.getByRole('button', { name: 'App Home' }).click();
    const home = ada.locator('#home');
    const waiting = home.locator('.block').filter({ hasText: 'Deploy billing to staging?' });
    await waiting.first().waitFor();
    await home.getByText('Waiting for your answer').waitFor();
    // The deadline as Slack shows a <!date> to Ada: in her time zone, not the fallback text in UTC.
    const deadline = await home.locator('.date').first().innerText();
    expect(deadline).toMatch(/^(Today|Tomorrow) at \d{1,2}:\d{2}\s[AP]M$/);
    await shot(ada, 'home with the waiting question');

    await home.getByRole('button', { name: 'Respond' }).first().click();
    const dialog = ada.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('group', { name: 'Deploy now?' }).getByLabel('Yes').check();
    await dialog.getByLabel('Reason').fill('Hotfix for the invoice rounding bug');
    await shot(ada, 'form opened from the home');
    await dialog.getByRole('button', { name: 'Send' }).click();
    // The form approves something (a "confirm" field): the bot pushes a review of the answers first.
    await dialog.getByText('Review your answers').waitFor();
    await shot(ada, 'review before sending');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    await home.getByText('Nothing is waiting for you.').waitFor();
    const recent = home.locator('.block').filter({ hasText: 'Answered' });
    await recent.first().waitFor();
    expect(await recent.first().innerText()).toContain('Deploy billing to staging?');
    await shot(ada, 'home after answering');
  });
});
