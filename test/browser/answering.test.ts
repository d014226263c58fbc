// A person answering elicitations on the sandbox page, in Chromium: the sandbox runs as `npm start` runs it
// (no Slack credentials), and every step goes through the page as a person would do it.
import { fileURLToPath } from 'node:url';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADA, openAs, runAndFind, sandboxPage, screenshots } from './harness.js';
const MEI = { id: 'U0MEI', name: '王美 Mei' };
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The slow example with a deadline short enough to watch it pass. */
const SLOW_SERVER = {
  command: process.execPath,
  args: ['--import', 'tsx', `${ROOT}examples/slow.ts`],
  cwd: ROOT,
  elicitation: { timeout: '4s' },
  slack: { reminders: ['50%'] },
};

/** The tool's result message that follows `card`, parsed as the JSON the example servers report. */
async function resultAfter(card: Locator, headline: string): Promise<unknown> {
  // A run that lasts a few seconds (a person filling its form) also has a working message, whose end can read as
  // the result's headline does ("basics 已完成；结果如下"): the result is the message with sections after it.
  const result = card
    .locator('xpath=following-sibling::*[@role="article"]')
    .filter({ hasText: headline })
    .filter({ has: card.page().locator('.block.section ~ .block.section') });
  await result.first().waitFor();
  // The sections after the headline hold the tool's text (split at Slack's section limit).
  const sections = await result.first().locator('.block.section').allInnerTexts();
  return JSON.parse(sections.slice(1).join('')) as unknown;
}

/** The input block of the open modal labelled `label` (its error shows inside it, under the control). */
const field = (dialog: Locator, label: string): Locator =>
  dialog.locator('.input-block').filter({ has: dialog.page().getByText(label, { exact: true }) });

describe('the sandbox page in Chromium', { timeout: 90_000 }, () => {
  const the = sandboxPage(() => ({ mcpServers: { slow: SLOW_SERVER } }));

  it('loads the page and everything it uses from the sandbox itself: nothing leaves this machine', async ({
    task,
  }) => {
    const shot = screenshots('answering', task.name);
    const page = await the.browser.context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(the.sandbox.url);
    await page.getByRole('listitem').filter({ hasText: '(you)' }).waitFor();
    await shot(page, 'page loaded');
    const origin = new URL(the.sandbox.url).origin;
    expect(requested.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/', '/app.js', '/style.css', '/api/info']),
    );
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    await page.close();
  });

  it('fills every basic field kind, shows a field error under its field, and relays the fixed answer with its types', async ({
    task,
  }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(the.ada, '/mcp run forms basics {}', 'Tell us about yourself');
    await shot(the.ada, 'card');
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByLabel('Your name').inputValue()).toBe('Ada Lovelace');
    expect(await dialog.getByLabel('Ratio').inputValue()).toBe('0.5');
    expect(
      await dialog.getByRole('group', { name: 'Send me the newsletter' }).getByLabel('No').isChecked(),
    ).toBe(true);
    await shot(the.ada, 'form with defaults');

    await dialog.getByLabel('Your name').fill('Grace Hopper');
    await dialog.getByLabel('Short bio').fill('Wrote the first compiler.\nAdmiral.');
    await dialog.getByLabel('Email').fill('grace-at-navy');
    await dialog.getByLabel('Homepage').fill('https://example.com/grace');
    await dialog.getByLabel('Birthday').fill('1906-12-09');
    await dialog.getByLabel('Meeting at').fill('2030-01-02T09:30');
    await dialog.getByLabel('Ratio').fill('0.75');
    await dialog.getByLabel('Seats').fill('3');
    await dialog.getByRole('group', { name: 'Send me the newsletter' }).getByLabel('Yes').check();
    await dialog.getByRole('group', { name: 'Pet (legacy enumNames)' }).getByLabel('Dog 🐶').check();
    await shot(the.ada, 'form filled with a bad email');
    await dialog.getByRole('button', { name: 'Send' }).click();

    const email = field(dialog, 'Email');
    await email.getByText('Enter a valid email address').waitFor();
    await shot(the.ada, 'field error under email');
    await dialog.getByLabel('Email').fill('grace@example.com');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(await resultAfter(card, 'basics on forms finished')).toEqual({
      action: 'accept',
      content: {
        name: 'Grace Hopper',
        bio: 'Wrote the first compiler.\nAdmiral.',
        email: 'grace@example.com',
        homepage: 'https://example.com/grace',
        birthday: '1906-12-09',
        meeting: '2030-01-02T09:30:00Z',
        ratio: 0.75,
        seats: 3,
        newsletter: true,
        pet: 'dog',
      },
    });
    await card.getByText('Answered').waitFor();
    expect(await card.getByRole('button', { name: 'Respond' }).count()).toBe(0);
    await shot(the.ada, 'card answered and the result');
  });

  it('fills every select kind: defaults pre-selected, titled options, type-to-search (block_suggestion) and multi-select', async ({
    task,
  }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(the.ada, '/mcp run forms choices {}', 'Pick a few things');
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('group', { name: 'Size' }).getByLabel('M').isChecked()).toBe(true);
    expect(await dialog.getByLabel('City').inputValue()).not.toBe('');
    expect(await dialog.getByRole('group', { name: 'Toppings' }).getByLabel('cheese').isChecked()).toBe(true);
    await shot(the.ada, 'form with defaults');

    await dialog.getByRole('group', { name: 'Size' }).getByLabel('L').check();
    await dialog.getByRole('group', { name: 'Plan' }).getByLabel('Team <b>&</b> friends').check();
    await dialog.getByLabel('City').selectOption({ label: '北京' });
    const region = dialog.getByRole('group', { name: 'Region (type to search)' });
    await region.getByRole('combobox').fill('region 11');
    await region.getByRole('option', { name: 'Region 117' }).waitFor();
    await shot(the.ada, 'type-to-search suggestions');
    await region.getByRole('option', { name: 'Region 117' }).click();
    await dialog.getByRole('group', { name: 'Toppings' }).getByLabel('basil').check();
    await dialog.getByLabel('Languages').selectOption([{ label: 'TypeScript' }, { label: '中文' }]);
    await shot(the.ada, 'form filled');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(await resultAfter(card, 'choices on forms finished')).toEqual({
      action: 'accept',
      content: {
        size: 'L',
        plan: 'team',
        city: '北京',
        region: 'Region 117',
        toppings: ['cheese', 'basil'],
        languages: ['ts', 'zh'],
      },
    });
    await card.getByText('Answered').waitFor();
    await shot(the.ada, 'card answered and the result');
  });

  it('declining a card tells the tool, and the card says it was declined', async ({ task }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(
      the.ada,
      '/mcp run approvals deploy {"service": "web"}',
      'This restarts its pods',
    );
    await shot(the.ada, 'card');
    await card.getByRole('button', { name: 'Decline' }).click();
    const result = the.ada.getByRole('article').filter({ hasText: 'Not deployed: the approver declined.' });
    await result.waitFor();
    await card.getByText('Declined').waitFor();
    expect(await card.getByRole('button', { name: 'Respond' }).count()).toBe(0);
    await shot(the.ada, 'card declined and the result');
  });

  it('closing the form answers cancel, and the card says it was closed', async ({ task }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(the.ada, '/mcp run forms choices {}', 'Pick a few things');
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.waitFor();
    await shot(the.ada, 'form open');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await resultAfter(card, 'choices on forms finished')).toEqual({ action: 'cancel' });
    await card.getByText('Closed without answering').waitFor();
    await shot(the.ada, 'card closed and the result');
  });

  it('a question nobody answers is nudged half way, then expires: the card says so and the tool gets cancel', async ({
    task,
  }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(the.ada, '/mcp run slow ask {}', 'This question expires soon');
    await shot(the.ada, 'card');
    // Half way to the deadline, a nudge in the card's thread mentions her.
    const reminder = card
      .locator('xpath=following-sibling::*[@role="article"]')
      .filter({ hasText: 'Reminder: slow is still waiting for your answer.' });
    await reminder.first().waitFor();
    expect(await reminder.first().innerText()).toContain('replied in a thread');
    expect(await reminder.first().innerText()).toContain('@ada');
    await shot(the.ada, 'reminder in the thread');
    await card.getByText('Expired: no answer in time').waitFor();
    expect(await resultAfter(card, 'ask on slow finished')).toEqual({ action: 'cancel' });
    await shot(the.ada, 'card expired and the result');
  });

  it('the zh-CN person gets the card, the form and its errors in Chinese', async ({ task }) => {
    const shot = screenshots('answering', task.name);
    const mei = await openAs(the.browser, the.sandbox.url, MEI.id, MEI.name);
    const card = await runAndFind(mei, '/mcp run forms basics {}', 'Tell us about yourself');
    await shot(mei, 'card in chinese');
    await card.getByRole('button', { name: '回答' }).click();
    const dialog = mei.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel('Email').fill('mei-at-example');
    await dialog.getByLabel('Seats').fill('2');
    await dialog.getByRole('button', { name: '发送' }).click();
    await field(dialog, 'Email').getByText('请输入有效的电子邮件地址').waitFor();
    await shot(mei, 'field error in chinese');
    await dialog.getByLabel('Email').fill('mei@example.com');
    await dialog.getByRole('button', { name: '发送' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await resultAfter(card, 'basics 已完成')).toMatchObject({
      action: 'accept',
      content: { email: 'mei@example.com', seats: 2 },
    });
    await card.getByText('已回答').waitFor();
    await shot(mei, 'card answered in chinese');
    await mei.close();
  });

  it("refuses a second person who clicks someone else's card, and leaves the question open", async ({
    task,
  }) => {
    const shot = screenshots('answering', task.name);
    const card = await runAndFind(the.ada, '/mcp run forms basics {}', 'Tell us about yourself');
    const mei = await openAs(the.browser, the.sandbox.url, MEI.id, MEI.name);
    await mei.getByRole('listitem').filter({ hasText: ADA.name }).click();
    await mei.getByRole('note').filter({ hasText: "Ada Lovelace's conversation" }).waitFor();
    const seenByMei = mei.getByRole('article').filter({ hasText: 'Tell us about yourself' }).last();
    await seenByMei.getByRole('button', { name: 'Respond' }).click();
    // Mei's Slack locale is zh-CN: the bot tells her in Chinese whose question it is.
    await mei.getByText('此问题只能由').waitFor();
    expect(await mei.getByRole('dialog').count()).toBe(0);
    await shot(mei, 'refused');
    await mei.close();

    await card.getByRole('button', { name: 'Respond' }).waitFor();
    await card.getByRole('button', { name: 'Decline' }).click();
    await card.getByText('Declined').waitFor();
    await shot(the.ada, 'still hers to answer');
  });
});
