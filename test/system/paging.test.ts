// A form too long for one modal: page by page, answers kept in Redis across pages (and replicas), Back works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { LONG_FORM, inputs } from './long-form.js';

describe('a paged form', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ replicas: 2 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('collects every page, on any replica, and relays all answers at the end', async () => {
    const card = await h.ask('U1', LONG_FORM);
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_respond' });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U1').length > 0);
    const viewId = h.standin.openViews('U1')[0]?.id ?? '';
    const first = inputs(h, viewId);
    expect(first).toHaveLength(20);
    const next = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { [first[0]?.block_id ?? '']: 'one', [first[19]?.block_id ?? '']: 'twenty' },
    });
    expect(next.json).toMatchObject({ response_action: 'update' });
    const second = inputs(h, viewId);
    expect(second.map((b) => b.label?.text)).toEqual([
      'Question 21',
      'Question 22',
      'Question 23',
      'Question 24',
      'Question 25',
    ]);
    const [, otherReplica] = h.drivers;
    const done = await otherReplica?.submitView({
      userId: 'U1',
      viewId,
      values: { [second[4]?.block_id ?? '']: 'last' },
    });
    expect(done?.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({
      action: 'accept',
      content: { q1: 'one', q20: 'twenty', q25: 'last' },
    });
  });

  it('goes Back to the previous page with its answers kept', async () => {
    const card = await h.ask('U2', LONG_FORM);
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_respond' });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U2').length > 0);
    const viewId = h.standin.openViews('U2')[0]?.id ?? '';
    const firstBlock = inputs(h, viewId)[0]?.block_id ?? '';
    await h.driver.submitView({ userId: 'U2', viewId, values: { [firstBlock]: 'kept' } });
    const back = await h.driver.clickViewButton({ userId: 'U2', viewId, actionId: 'elicit_page_back' });
    expect(back.status).toBe(200);
    await h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === viewId);
    const again = inputs(h, viewId);
    expect(again).toHaveLength(20);
    expect(again[0]?.element?.initial_value).toBe('kept');
  });

  it('shows that the question ended when Back is pressed on a form whose question was declined meanwhile', async () => {
    const card = await h.ask('U3', LONG_FORM);
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_respond' });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U3').length > 0);
    const viewId = h.standin.openViews('U3')[0]?.id ?? '';
    const firstBlock = inputs(h, viewId)[0]?.block_id ?? '';
    await h.driver.submitView({ userId: 'U3', viewId, values: { [firstBlock]: 'typed' } });
    // Declined from the card (another device, say): the form on this screen is replaced by the ended view, but
    // Back is pressed on its second page before that replacement arrives.
    const replacement = h.standin.holdNext('views.update');
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U3')).toEqual({ action: 'decline' });
    await replacement.arrived;

    const back = await h.driver.clickViewButton({ userId: 'U3', viewId, actionId: 'elicit_page_back' });
    expect(back.status).toBe(200);
    const ended = await h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === viewId);
    expect(ended.args.view).toMatchObject({
      blocks: [{ text: { text: 'This question has already been declined by <@U3>.' } }],
    });
    replacement.release();
  });
});
