// A button left on a person's App Home after its question ended (the Home was drawn before the end, or its
// refresh was skipped at a replica's stop) must say why it changed nothing: the person gets a modal with the
// reason, opened on the click's trigger_id, and the Home is drawn again without the question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } } };
type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

const buttonValues = (call: RecordedCall, actionId: string): string[] =>
  ((call.args.view as { blocks?: Block[] }).blocks ?? [])
    .flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
    .filter((e) => e.action_id === actionId)
    .map((e) => e.value ?? '');

describe('a click on an App Home button whose question has ended', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('tells the person why in a modal, and draws the Home again without the question', async () => {
    const card = await h.ask('U1', SCHEMA, 'Ship it?');
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    await h.driver.openHome('U1');
    await h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === 'U1' && buttonValues(c, 'elicit_decline').includes(id),
    );
    // The Home drawn again after the end is held back: the person still has the one with the question's Decline.
    const redraw = h.standin.holdNext('views.publish');
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    await redraw.arrived;
    const from = h.standin.calls.length;
    await h.driver.clickHomeButton({ userId: 'U1', actionId: 'elicit_decline', value: id });
    const told = await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.calls.indexOf(c) >= from);
    expect(JSON.stringify(told.args.view)).toContain('already been declined');
    redraw.release();
    await h.standin.waitForCall(
      'views.publish',
      (c) =>
        c.ok &&
        c.args.user_id === 'U1' &&
        h.standin.calls.indexOf(c) >= from &&
        !buttonValues(c, 'elicit_decline').includes(id),
    );
  });
});
