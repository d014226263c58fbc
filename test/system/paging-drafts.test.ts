// A paged form never loses what the person typed: Respond again goes on from their draft (after a close the
// policy keeps open, or while an older modal is still on another screen), and Back keeps the page it leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStateValues, type FieldAnswer } from '../../src/standin/index.js';
import { openForm, startHarness, type Harness } from './harness.js';
import { LONG_FORM, inputs } from './long-form.js';

type ViewObject = Record<string, unknown> & { blocks?: unknown };

const labels = (h: Harness, viewId: string) => inputs(h, viewId).map((b) => b.label?.text);
const PAGE_TWO = ['Question 21', 'Question 22', 'Question 23', 'Question 24', 'Question 25'];

/** The view's answers keyed by block id, from answers keyed by the field's position on the page. */
function byPosition(
  h: Harness,
  viewId: string,
  answers: Record<number, string>,
): Record<string, FieldAnswer> {
  const blocks = inputs(h, viewId);
  return Object.fromEntries(
    Object.entries(answers).map(([at, v]) => [blocks[Number(at)]?.block_id ?? '', v]),
  );
}

/** Respond clicked while a form is open: Slack's new modal replaces it (on this screen). */
async function respondAgain(
  h: Harness,
  userId: string,
  card: { channel: string; ts: string },
): Promise<string> {
  const opens = () => h.standin.calls.filter((c) => c.method === 'views.open' && c.ok).length;
  const before = opens();
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  await h.standin.waitForCall('views.open', () => opens() > before, 10_000);
  return h.standin.openViews(userId).at(-1)?.id ?? '';
}

/** Who acts, as Slack puts it in an interaction payload. */
function actor(h: Harness, userId: string) {
  const { teamId, teamDomain, appId } = h.standin.identity;
  return {
    team: { id: teamId, domain: teamDomain },
    user: { id: userId, username: userId, name: userId, team_id: teamId },
    api_app_id: appId,
  };
}

/** Back clicked on `view`, with what its inputs hold: Slack sends the view's state.values with the click. */
const clickBack = (h: Harness, userId: string, viewId: string, values: Record<string, FieldAnswer>) =>
  h.driver.clickViewButton({ userId, viewId, actionId: 'elicit_page_back', values });

/** A submit of `view` from a screen that still shows it after the stand-in replaced it (another device). */
function submitFromOtherScreen(
  h: Harness,
  userId: string,
  view: ViewObject,
  answers: Record<string, FieldAnswer>,
) {
  return h.driver.send({
    payload: {
      type: 'view_submission',
      ...actor(h, userId),
      trigger_id: h.standin.issueTriggerId(userId),
      view: { ...view, state: { values: buildStateValues(view, answers) } },
      response_urls: [],
    },
  });
}

describe('a paged form answered in several goes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ slack: { onClose: 'keep', review: false } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('opens again, after a close that keeps the question, on the page left with the pages sent', async () => {
    const card = await h.ask('U1', LONG_FORM);
    const form = await openForm(h, 'U1', card);
    await h.driver.submitView({
      userId: 'U1',
      viewId: form,
      values: byPosition(h, form, { 0: 'one', 19: 'twenty' }),
    });
    expect(labels(h, form)).toEqual(PAGE_TWO);
    await h.driver.closeView({ userId: 'U1', viewId: form });
    const again = await openForm(h, 'U1', card);
    expect(labels(h, again)).toEqual(PAGE_TWO);
    const done = await h.driver.submitView({
      userId: 'U1',
      viewId: again,
      values: byPosition(h, again, { 4: 'last' }),
    });
    expect(done.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({
      action: 'accept',
      content: { q1: 'one', q20: 'twenty', q25: 'last' },
    });
  });

  it('takes the page an older modal still shows, whatever page the draft is on, with the pages sent', async () => {
    const card = await h.ask('U2', LONG_FORM);
    const older = await openForm(h, 'U2', card);
    await h.driver.submitView({ userId: 'U2', viewId: older, values: byPosition(h, older, { 0: 'one' }) });
    const olderView = h.standin.view(older)?.view ?? {};
    const newer = await respondAgain(h, 'U2', card);
    expect(labels(h, newer)).toEqual(PAGE_TWO);
    // On the newer screen the person goes Back: the draft is on page one, the older screen still on page two.
    await clickBack(h, 'U2', newer, byPosition(h, newer, { 4: 'on the newer screen' }));
    await h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === newer);
    const answers = byPosition(h, older, { 0: 'twenty-one', 4: 'last' });
    const done = await submitFromOtherScreen(h, 'U2', olderView, answers);
    expect(done.status).toBe(200);
    expect(done.body).toBe('');
    expect(await h.toolResult('U2')).toEqual({
      action: 'accept',
      content: { q1: 'one', q21: 'twenty-one', q25: 'last' },
    });
  });

  it('keeps what the page holds on Back, and shows it again on Next', async () => {
    const card = await h.ask('U3', LONG_FORM);
    const form = await openForm(h, 'U3', card);
    await h.driver.submitView({ userId: 'U3', viewId: form, values: byPosition(h, form, { 0: 'one' }) });
    const updates = h.standin.calls.filter((c) => c.method === 'views.update').length;
    const back = await clickBack(h, 'U3', form, byPosition(h, form, { 0: 'typed on page two', 4: 'last' }));
    expect(back.status).toBe(200);
    await h.standin.waitForCall(
      'views.update',
      (c) => c.ok && h.standin.calls.filter((x) => x.method === 'views.update').length > updates,
    );
    expect(inputs(h, form)[0]?.element?.initial_value).toBe('one');
    await h.driver.submitView({ userId: 'U3', viewId: form, values: byPosition(h, form, { 0: 'one' }) });
    expect(labels(h, form)).toEqual(PAGE_TWO);
    expect(inputs(h, form).map((b) => b.element?.initial_value)).toEqual([
      'typed on page two',
      undefined,
      undefined,
      undefined,
      'last',
    ]);
  });
});
