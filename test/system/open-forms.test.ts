// A form left open when its question ends elsewhere: another approver answered first, or the server
// withdrew the question. The open form is replaced by a view saying why it is no longer needed, while the
// person whose own submit ended the question is left alone (Slack closed their form); one who declined from the
// card instead has theirs replaced too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { openForm, startApprovals, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { reason: { type: 'string', title: 'Reason' } } };

const isCard = (c: RecordedCall): boolean => JSON.stringify(c.args.blocks ?? '').includes('elicit_respond');

async function askInChannel(h: Harness, message: string, cancelWhen?: string) {
  const [tool, extra] = cancelWhen ? ['ask_until_file', { cancelWhen }] : ['ask', {}];
  const args = JSON.stringify({ message, schema: SCHEMA, ...extra });
  await h.driver.slashCommand({ userId: 'U1', command: '/mcp', text: `run fixture ${tool} ${args}` });
  await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === 'C0APPROVE' && isCard(c) && JSON.stringify(c.args).includes(message),
    15_000,
  );
  const posted = h.standin
    .messagesIn('C0APPROVE')
    .findLast((m) => JSON.stringify(m.blocks).includes(message));
  return { channel: 'C0APPROVE', ts: posted?.ts ?? '' };
}

/** The person closes the notice that replaced their form (it asks for no view_closed: Slack sends nothing). */
const closeNotice = (h: Harness, viewId: string): void => h.standin.settleClose(viewId);

/** The next views.update of `viewId`, once Slack accepted it. */
const replaced = (h: Harness, viewId: string) =>
  h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === viewId, 15_000);

describe('forms left open when their question ends elsewhere', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApprovals(['UAPPA', 'UAPPB']);
  });
  afterAll(() => h.close());

  it('tells an approver whose form is open that another one declined, and leaves the decider alone', async () => {
    const card = await askInChannel(h, 'Refund order 42?');
    const formOfA = await openForm(h, 'UAPPA', card);
    await h.driver.clickButton({ userId: 'UAPPB', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });

    const update = await replaced(h, formOfA);
    expect(JSON.stringify(update.args.view)).toContain('Declined');
    expect(JSON.stringify(h.standin.view(formOfA)?.view)).not.toContain('"type":"input"');
    closeNotice(h, formOfA);
  });

  it('replaces the other approver’s form when one submits, but not the submitter’s own', async () => {
    const card = await askInChannel(h, 'Refund order 43?');
    // B opens first: forms are replaced in the order they were opened, so had B's been replaced, that
    // update would come before A's, which the test awaits.
    const formOfB = await openForm(h, 'UAPPB', card);
    const formOfA = await openForm(h, 'UAPPA', card);
    const reason = (viewId: string): string =>
      (h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] }).blocks.find(
        (b) => b.type === 'input',
      )?.block_id ?? '';
    const submit = await h.driver.submitView({
      userId: 'UAPPB',
      viewId: formOfB,
      values: { [reason(formOfB)]: 'ok' },
    });
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { reason: 'ok' } });

    const update = await replaced(h, formOfA);
    expect(JSON.stringify(update.args.view)).toContain('Answered');
    await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
    expect(h.standin.calls.filter((c) => c.method === 'views.update' && c.args.view_id === formOfB)).toEqual(
      [],
    );
    closeNotice(h, formOfA);
  });

  it('opens the form after a 429, while the click’s trigger_id is still good', async () => {
    const card = await askInChannel(h, 'Refund order 45?');
    h.standin.failNext('views.open', 'ratelimited', { retryAfterSec: 1 });
    const formOfA = await openForm(h, 'UAPPA', card);
    const opens = h.standin.calls.filter((c) => c.method === 'views.open');
    expect(opens.slice(-2).map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    await h.driver.clickButton({ userId: 'UAPPB', ...card, actionId: 'elicit_decline' });
    await replaced(h, formOfA);
    closeNotice(h, formOfA);
  });

  it('replaces an open form after a 429 on the replacement', async () => {
    const card = await askInChannel(h, 'Refund order 46?');
    const formOfA = await openForm(h, 'UAPPA', card);
    h.standin.failNext('views.update', 'ratelimited', { retryAfterSec: 1 });
    await h.driver.clickButton({ userId: 'UAPPB', ...card, actionId: 'elicit_decline' });
    const update = await replaced(h, formOfA);
    expect(JSON.stringify(update.args.view)).toContain('Declined');
    const updates = h.standin.calls.filter((c) => c.method === 'views.update' && c.args.view_id === formOfA);
    expect(updates.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    closeNotice(h, formOfA);
  });

  it('replaces an open form with "withdrawn" when the server gives up waiting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-open-forms-'));
    try {
      const cancelWhen = join(dir, 'give-up');
      const card = await askInChannel(h, 'Refund order 44?', cancelWhen);
      const formOfA = await openForm(h, 'UAPPA', card);
      // The server stops waiting now (notifications/cancelled), with the form open.
      writeFileSync(cancelWhen, '');
      const update = await replaced(h, formOfA);
      expect(JSON.stringify(update.args.view)).toContain('Withdrawn by the server');
      closeNotice(h, formOfA);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces the decider’s own open form when they decline from the card instead', async () => {
    const card = await askInChannel(h, 'Refund order 47?');
    const formOfA = await openForm(h, 'UAPPA', card);
    await h.driver.clickButton({ userId: 'UAPPA', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });

    const update = await replaced(h, formOfA);
    expect(JSON.stringify(update.args.view)).toContain('Declined');
    expect(JSON.stringify(h.standin.view(formOfA)?.view)).not.toContain('"type":"input"');
    closeNotice(h, formOfA);
  });
});
