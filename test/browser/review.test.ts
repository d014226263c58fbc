// The review step on the sandbox page, in Chromium: a form that approves something pushes a read-only
// review over itself (views stack); its Back button (the pushed view's close) returns to the form as it
// was left, and Send relays exactly the reviewed answers.
import { describe, expect, it } from 'vitest';
import { runAndFind, sandboxPage, screenshots } from './harness.js';

describe('the review step on the sandbox page, in Chromium', { timeout: 90_000 }, () => {
  const the = sandboxPage();

  it('pushes a review over the form, goes Back to the form as it was, and sends what was reviewed', async ({
    task,
  }) => {
    const shot = screenshots('review', task.name);
    const card = await runAndFind(
      the.ada,
      '/mcp run approvals deploy {"service": "api", "env": "staging"}',
      'Deploy api',
    );
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('group', { name: 'Deploy now?' }).getByLabel('Yes').check();
    await dialog.getByLabel('Reason').fill('First reason');
    await dialog.getByRole('button', { name: 'Send' }).click();

    await dialog.getByText('Review your answers').waitFor();
    expect(await dialog.innerText()).toContain('First reason');
    await shot(the.ada, 'review pushed over the form');
    // The view's own close button, labelled Back by the bot (the header's ‹ does the same, as in Slack).
    await dialog.getByRole('button', { name: 'Back' }).last().click();

    const reason = dialog.getByLabel('Reason');
    await reason.waitFor();
    expect(await reason.inputValue()).toBe('First reason');
    await reason.fill('Second thoughts: a better reason');
    await shot(the.ada, 'back on the form');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Review your answers').waitFor();
    expect(await dialog.innerText()).toContain('Second thoughts: a better reason');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    const result = card
      .locator('xpath=following-sibling::*[@role="article"]')
      .filter({ hasText: 'Deployed' });
    await result.first().waitFor();
    expect(await result.first().innerText()).toContain(
      'Deployed api to staging. Reason: Second thoughts: a better reason',
    );
    await shot(the.ada, 'sent');
  });
});
