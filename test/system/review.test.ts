// The modal's review step (Send / Back through response_action "push") and what closing the form means.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const APPROVAL = {
  type: 'object',
  properties: {
    note: { type: 'string', title: 'Note' },
    approve: { type: 'boolean', title: 'Approve the refund' },
  },
  required: ['approve'],
};

async function openForm(h: Harness, userId: string, card: { channel: string; ts: string }): Promise<string> {
  const before = h.standin.calls.filter((c) => c.method === 'views.open').length;
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  await h.standin.waitForCall(
    'views.open',
    (c) => c.ok && h.standin.calls.filter((x) => x.method === 'views.open').length > before,
    10_000,
  );
  const view = h.standin.openViews(userId).at(-1);
  if (!view) throw new Error('no modal open');
  return view.id;
}

function fill(h: Harness, viewId: string, note: string, approve: 'Yes' | 'No') {
  const blocks = h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[];
  const [noteBlock = '', approveBlock = ''] = blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
  return { [noteBlock]: note, [approveBlock]: approve };
}

const top = (h: Harness, userId: string) => h.standin.openViews(userId).at(-1);

describe('reviewing before sending (a form that approves something)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('pushes a read-only summary; Back returns to the form, Send relays what was reviewed', async () => {
    const card = await h.ask('U1', APPROVAL, 'Refund order 42?');
    const form = await openForm(h, 'U1', card);
    const first = await h.driver.submitView({
      userId: 'U1',
      viewId: form,
      values: fill(h, form, 'dup', 'No'),
    });
    expect(first.json).toMatchObject({ response_action: 'push' });
    const review = top(h, 'U1');
    expect(review?.view.callback_id).toBe('elicit_review');
    expect(JSON.stringify(review?.view.blocks)).toContain('*Approve the refund*: No');
    expect(h.standin.openViews('U1')).toHaveLength(2);
    await h.driver.closeView({ userId: 'U1', viewId: review?.id ?? '' });
    expect(top(h, 'U1')?.id).toBe(form);
    const second = await h.driver.submitView({
      userId: 'U1',
      viewId: form,
      values: fill(h, form, 'ok', 'Yes'),
    });
    expect(second.json).toMatchObject({ response_action: 'push' });
    const send = await h.driver.submitView({ userId: 'U1', viewId: top(h, 'U1')?.id ?? '', values: {} });
    expect(send.json).toEqual({ response_action: 'clear' });
    expect(h.standin.openViews('U1')).toEqual([]);
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { note: 'ok', approve: true } });
  });

  it('answers cancel when the person closes everything from the review (the X)', async () => {
    const card = await h.ask('U2', APPROVAL, 'Refund order 43?');
    const form = await openForm(h, 'U2', card);
    await h.driver.submitView({ userId: 'U2', viewId: form, values: fill(h, form, '', 'Yes') });
    await h.driver.closeView({ userId: 'U2', viewId: top(h, 'U2')?.id ?? '', clearStack: true });
    expect(await h.toolResult('U2')).toEqual({ action: 'cancel' });
  });
});

describe('a server whose policy keeps questions open when the form is closed', () => {
  it('leaves the question pending after a close; Respond opens the form again and the answer goes through', async () => {
    const h = await startHarness({ slack: { onClose: 'keep', review: false } });
    try {
      const card = await h.ask('U1', APPROVAL, 'Later?');
      const form = await openForm(h, 'U1', card);
      await h.driver.closeView({ userId: 'U1', viewId: form });
      const again = await openForm(h, 'U1', card);
      expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);
      const submit = await h.driver.submitView({
        userId: 'U1',
        viewId: again,
        values: fill(h, again, '', 'Yes'),
      });
      expect(submit.body).toBe('');
      expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { approve: true } });
    } finally {
      await h.close();
    }
  });
});
