// The sandbox's Automations panel in Chromium: a question sent from the panel through the API reaches the
// person's DM as a card, is answered there on the form, and the sandbox's own receiver shows its signed
// webhook. The sandbox runs as `npm start` runs it (no Slack credentials, no API token set: one per start).
import { describe, expect, it } from 'vitest';
import { ADA, sandboxPage, screenshots } from './harness.js';

const MESSAGE = 'Deploy web 1.4.2 to production?';

describe('the Automations panel in Chromium', { timeout: 90_000 }, () => {
  const the = sandboxPage();

  it('asks Ada from the panel, she accepts on the card, and the panel lists the verified question.ended webhook', async ({
    task,
  }) => {
    const shot = screenshots('automations', task.name);
    const page = the.ada;
    await page.getByRole('button', { name: 'Automations' }).click();
    const panel = page.locator('#automations');
    const curl = panel.getByLabel('curl', { exact: true });
    expect(await curl.innerText()).toContain(`${new URL(the.sandbox.url).origin}/api/v1/questions`);
    expect(await panel.getByLabel('elicit-relay ask', { exact: true }).innerText()).toContain(
      `--to ${ADA.id}`,
    );
    await panel.getByText('No webhook yet').waitFor();
    await shot(page, 'panel with the commands');

    await panel.getByRole('button', { name: `Ask ${ADA.name} for an approval` }).click();
    const sent = panel.getByText(/question \S+ is pending/);
    await sent.waitFor();
    const id = /question (\S+) is pending/.exec(await sent.innerText())?.[1] ?? '';
    await shot(page, 'question sent');

    await page
      .getByRole('listitem')
      .filter({ hasText: `${ADA.name} (you)` })
      .click();
    const card = page.getByRole('article').filter({ hasText: MESSAGE });
    await card.getByText('automation').first().waitFor();
    await shot(page, 'card in the DM');
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Comment for the release log').fill('Ship it');
    await shot(page, 'form filled');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Answered').waitFor();
    await shot(page, 'card answered');

    await page.getByRole('button', { name: 'Automations' }).click();
    const row = panel.getByRole('row').filter({ hasText: id });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 4)).toEqual(['question.ended', id, 'accepted', 'yes']);
    expect(cells[4]).toMatch(/^dlv_/);
    await shot(page, 'webhook listed');
  });
});
