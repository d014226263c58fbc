// App Home on the sandbox page, in Chromium: a question waiting for the person is listed there with its
// buttons; answering from the Home opens the same form, and the Home then lists the answer instead.
import { describe, expect, it } from 'vitest';
import { sandboxPage, screenshots, typeCommand } from './harness.js';

describe('App Home on the sandbox page, in Chromium', { timeout: 90_000 }, () => {
  const the = sandboxPage();

  it('lists a waiting question with Respond, opens its form from there, and then shows the answer', async ({
    task,
  }) => {
    const shot = screenshots('home', task.name);
    await typeCommand(the.ada, '/mcp run approvals deploy {"service": "billing", "env": "staging"}');
    await the.ada.getByRole('article').filter({ hasText: 'Deploy billing to staging?' }).first().waitFor();

    await the.ada.getByRole('button', { name: 'App Home' }).click();
    const home = the.ada.locator('#home');
    const waiting = home.locator('.block').filter({ hasText: 'Deploy billing to staging?' });
    await waiting.first().waitFor();
    await home.getByText('Waiting for your answer').waitFor();
    // The deadline as Slack shows a <!date> to Ada: in her time zone, not the fallback text in UTC.
    const deadline = await home.locator('.date').first().innerText();
    expect(deadline).toMatch(/^(Today|Tomorrow) at \d{1,2}:\d{2}\s[AP]M$/);
    await shot(the.ada, 'home with the waiting question');

    await home.getByRole('button', { name: 'Respond' }).first().click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('group', { name: 'Deploy now?' }).getByLabel('Yes').check();
    await dialog.getByLabel('Reason').fill('Hotfix for the invoice rounding bug');
    await shot(the.ada, 'form opened from the home');
    await dialog.getByRole('button', { name: 'Send' }).click();
    // The form approves something (a "confirm" field): the bot pushes a review of the answers first.
    await dialog.getByText('Review your answers').waitFor();
    await shot(the.ada, 'review before sending');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    await home.getByText('Nothing is waiting for you.').waitFor();
    const recent = home.locator('.block').filter({ hasText: 'Answered' });
    await recent.first().waitFor();
    expect(await recent.first().innerText()).toContain('Deploy billing to staging?');
    await shot(the.ada, 'home after answering');
  });
});
