// Whom an Automations API question asks (PRODUCT "Automations contract"), against three replicas, real Redis
// and the Slack stand-in: anyone in a channel, several people in multi-person DMs of at most eight, a user
// group's members, each in their App Home; the first one to act wins and every card names them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodLimit } from '../../blocks/slack-rate-limits.js';
import type { Api } from './api-support.js';
import type { Harness } from './harness.js';
import { TEN, TWENTY, startQuestionsRig, type Ask, type CardOf } from './api-questions-support.js';

describe('the questions API: whom it asks', () => {
  let h: Harness;
  let api: Api;
  let ask: Ask;
  let cardOf: CardOf;
  beforeAll(async () => ({ h, api, ask, cardOf } = await startQuestionsRig()));
  afterAll(() => h.close());

  it('asks anyone in a channel there: a non-member is refused, the first member to act wins and the card names them', async () => {
    const id = String((await ask({ to: { channel: 'C0APPROVE' }, message: 'Approve release?' })).body.id);
    const card = await cardOf(id);
    expect(card.channel).toBe('C0APPROVE');
    const place = { channel: 'C0APPROVE', ts: card.ts };
    await h.driver.clickButton({ userId: 'U3', ...place, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    const waiting = api('GET', `/questions/${id}?wait=30`, { on: 2 });
    await h.drivers[1]?.clickButton({ userId: 'U2', ...place, actionId: 'elicit_decline' });
    const ended = await waiting;
    const declined = {
      status: 'declined',
      reason: 'declined',
      result: { action: 'decline' },
      answeredBy: 'U2',
    };
    expect(ended.body).toMatchObject(declined);
    // A later act of another member changes nothing.
    await h.drivers[2]?.clickButton({ userId: 'U1', ...place, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}`)).body).toMatchObject(declined);
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === place.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('<@U2>');
  });

  it('asks several people in one multi-person DM: someone not listed is refused, the first listed person to act wins', async () => {
    const id = String((await ask({ to: { users: ['U1', 'U2'] }, message: 'Both of you?' })).body.id);
    const card = await cardOf(id);
    expect(card.channel).toBe(h.standin.mpimChannelOf(['U1', 'U2']));
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    const waiting = api('GET', `/questions/${id}?wait=30`);
    await h.drivers[1]?.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    expect((await waiting).body).toMatchObject({ status: 'declined', answeredBy: 'U2' });
    await h.drivers[2]?.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}`)).body).toMatchObject({ answeredBy: 'U2' });
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('<@U2>');
  });

  /** The card of question `id` posted in the multi-person DM of `people`. */
  const cardAmong = (id: string, people: string[]) => cardIn(id, h.standin.mpimChannelOf(people));

  /** The card of question `id` posted in `channel`. */
  const cardIn = async (id: string, channel: string): Promise<{ channel: string; ts: string }> => {
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === channel && JSON.stringify(c.args.blocks).includes(id),
      30_000,
    );
    const posted = h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes(id));
    return { channel, ts: posted?.ts ?? '' };
  };

  /** Resolves once every one of `cards` was updated to name `person` as the one who ended the question. */
  const allNaming = async (cards: { channel: string; ts: string }[], person: string): Promise<void> => {
    for (const card of cards) {
      const update = await h.standin.waitForCall(
        'chat.update',
        (c) => c.ok && c.args.channel === card.channel && c.args.ts === card.ts,
        15_000,
      );
      expect(JSON.stringify(update.args.blocks)).toContain(`<@${person}>`);
    }
  };

  it('asks 20 listed people with one card in each of 3 multi-person DMs of 8, 8 and 4; one answer ends it on every card', async () => {
    const id = String((await ask({ to: { users: TWENTY }, message: 'Twenty of you?' })).body.id);
    const cards = await Promise.all([
      cardAmong(id, TWENTY.slice(0, 8)),
      cardAmong(id, TWENTY.slice(8, 16)),
      cardAmong(id, TWENTY.slice(16)),
    ]);
    expect(new Set(cards.map((card) => card.channel)).size).toBe(3);
    const cardCalls = h.standin.calls.filter(
      (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args.blocks).includes(id),
    );
    expect(cardCalls).toHaveLength(3);
    const last = TWENTY[19] ?? '';
    await h.drivers[1]?.clickButton({ userId: last, ...cards[2], actionId: 'elicit_decline' });
    const ended = await api('GET', `/questions/${id}?wait=30`);
    expect(ended.body).toMatchObject({ status: 'declined', answeredBy: last });
    await allNaming(cards, last);
  });

  it('asks 9 listed people in a multi-person DM of 8 and the ninth in their own DM, where they answer', async () => {
    const nine = TWENTY.slice(0, 9);
    const ninth = nine[8] ?? '';
    const id = String((await ask({ to: { users: nine }, message: 'Nine of you?' })).body.id);
    const ownCard = await cardIn(id, h.standin.dmChannelOf(ninth));
    await h.drivers[0]?.clickButton({ userId: ninth, ...ownCard, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}?wait=30`)).body).toMatchObject({ answeredBy: ninth });
    await allNaming([await cardAmong(id, nine.slice(0, 8)), ownCard], ninth);
  });

  it('asks a user group of 10 in 2 multi-person DMs (8 and 2): a member of the second answers, both cards say so', async () => {
    const id = String((await ask({ to: { usergroup: 'S0TEN' }, message: 'Group of ten?' })).body.id);
    const cards = await Promise.all([cardAmong(id, TEN.slice(0, 8)), cardAmong(id, TEN.slice(8))]);
    const answerer = TEN[9] ?? '';
    await h.drivers[2]?.clickButton({ userId: answerer, ...cards[1], actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}?wait=30`)).body).toMatchObject({
      status: 'declined',
      answeredBy: answerer,
    });
    await allNaming(cards, answerer);
  });

  it('asks a user group: members resolved when asked, the card in their multi-person DM, any member may answer', async () => {
    const id = String((await ask({ to: { usergroup: 'S0ONCALL' }, message: 'On-call sign-off?' })).body.id);
    const card = await cardOf(id);
    expect(card.channel).toBe(h.standin.mpimChannelOf(['U4', 'U5']));
    await h.drivers[1]?.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    await h.drivers[2]?.clickButton({ userId: 'U5', ...card, actionId: 'elicit_decline' });
    const ended = await api('GET', `/questions/${id}?wait=30`);
    expect(ended.body).toMatchObject({ status: 'declined', answeredBy: 'U5' });
  });
  it('lists the question in the App Home of each person it names; a decline from one Home ends it for all', async () => {
    const people = ['U0HOME1', 'U0HOME2'];
    for (const person of people) expect((await h.driver.openHome(person)).status).toBe(200);
    const id = String((await ask({ to: { users: people }, message: 'Decline from Home?' })).body.id);
    const card = await cardOf(id);
    // The file's earlier questions (20 listed people, a user group of 10, ...) queue about 70 App Home
    // publishes, which the bot paces by views.publish's documented limit per workspace (Tier 4, one per
    // intervalMs after a burst): this question's publishes come after them.
    const pacedBacklogMs = 100 * (methodLimit('views.publish')?.intervalMs ?? 0);
    const home = (person: string, matches: (view: string) => boolean) =>
      h.standin.waitForCall(
        'views.publish',
        (c) => c.ok && c.args.user_id === person && matches(JSON.stringify(c.args.view)),
        15_000 + pacedBacklogMs,
      );
    const listed = (view: string): boolean => view.includes(`"value":"${id}"`);
    for (const person of people) await home(person, listed);
    const decline = { userId: 'U0HOME2', actionId: 'elicit_decline', value: id };
    expect((await h.drivers[2]?.clickHomeButton(decline))?.status).toBe(200);
    expect((await api('GET', `/questions/${id}?wait=30`)).body).toMatchObject({
      status: 'declined',
      answeredBy: 'U0HOME2',
    });
    await home('U0HOME2', (view) => !listed(view) && view.includes('Declined'));
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('<@U0HOME2>');
  });
});
