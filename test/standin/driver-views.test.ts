// The Slack driver in a modal: view_submission with the bot's response_action applied, view_closed on a
// stack of views, and block_suggestion for external selects, each refused where Slack would refuse it.
import { describe, expect, it } from 'vitest';
import {
  type SlackDriver,
  type SlackStandin,
  StandinError,
  VERIFICATION_TOKEN,
} from '../../src/standin/index.js';
import { callApi, modal, option, plain } from './helpers.js';
import type { Receiver } from './receiver.js';
import { last, openModal, rigEachTest, team, userObj } from './driver-rig.js';

let standin: SlackStandin, receiver: Receiver, driver: SlackDriver;
rigEachTest((rig) => ({ standin, receiver, driver } = rig));

describe('Slack driver: view_submission and view_closed', () => {
  it('submits with the view_submission shape Slack sends, and an empty ack closes the view', async () => {
    const viewId = await openModal(standin, modal({ private_metadata: 'q1' }));
    const reply = await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(reply.status).toBe(200);
    const p = last(receiver);
    expect(Object.keys(p).sort()).toEqual(
      [
        'api_app_id',
        'enterprise',
        'is_enterprise_install',
        'response_urls',
        'team',
        'token',
        'trigger_id',
        'type',
        'user',
        'view',
      ].sort(),
    );
    expect(p).toMatchObject({
      type: 'view_submission',
      user: userObj,
      team,
      response_urls: [],
      enterprise: null,
    });
    expect(p.view).toMatchObject({
      id: viewId,
      callback_id: 'form',
      private_metadata: 'q1',
      hash: standin.view(viewId)?.view.hash,
      state: { values: { name: { v: { type: 'plain_text_input', value: 'Ada' } } } },
    });
    expect(standin.view(viewId)?.open).toBe(false);
  });

  it('keeps the view open with field errors after response_action errors', async () => {
    const viewId = await openModal(standin);
    receiver.reply = () => ({ body: { response_action: 'errors', errors: { name: 'Too short' } } });
    const reply = await driver.submitView({ userId: 'U1', viewId, values: { name: 'A' } });
    expect(reply.json).toEqual({ response_action: 'errors', errors: { name: 'Too short' } });
    expect(standin.view(viewId)).toMatchObject({ open: true, errors: { name: 'Too short' } });
  });

  it('records an invalid response_action view as a failed response_action call', async () => {
    const viewId = await openModal(standin);
    receiver.reply = () => ({
      body: { response_action: 'update', view: modal({ title: plain('x'.repeat(30)) }) },
    });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    const call = await standin.waitForCall('response_action');
    expect([call.ok, call.error]).toEqual([false, 'invalid_arguments']);
  });

  it('applies response_action update in place and errors keyed by a non-input block as a failure', async () => {
    const viewId = await openModal(standin);
    receiver.reply = () => ({ body: { response_action: 'update', view: modal({ title: plain('Thanks') }) } });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(standin.view(viewId)?.view.title).toEqual(plain('Thanks'));
    receiver.reply = () => ({ body: { response_action: 'errors', errors: { nope: 'x' } } });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(standin.calls.filter((c) => c.method === 'response_action').map((c) => c.ok)).toEqual([
      true,
      false,
    ]);
  });

  it('sends view_closed for a notify_on_close view and closes it', async () => {
    const viewId = await openModal(standin, modal({ notify_on_close: true }));
    await driver.closeView({ userId: 'U1', viewId });
    expect(last(receiver)).toMatchObject({
      type: 'view_closed',
      team,
      user: userObj,
      token: VERIFICATION_TOKEN,
      view: { id: viewId, notify_on_close: true },
      is_cleared: false,
      is_enterprise_install: false,
    });
    expect(standin.view(viewId)?.open).toBe(false);
  });

  it('goes back from a pushed view to the one under it, and a submit that pushes keeps the view under it', async () => {
    const root = await openModal(standin, modal({ notify_on_close: true }));
    receiver.reply = () => ({
      body: { response_action: 'push', view: modal({ title: plain('Review'), notify_on_close: true }) },
    });
    await driver.submitView({ userId: 'U1', viewId: root, values: { name: 'Ada' } });
    const [under, pushed] = standin.openViews('U1');
    expect(under?.id).toBe(root);
    expect(pushed?.view).toMatchObject({
      title: plain('Review'),
      previous_view_id: root,
      root_view_id: root,
    });
    const notOnTop = await driver.closeView({ userId: 'U1', viewId: root }).catch((e: unknown) => e);
    expect((notOnTop as StandinError).code).toBe('view_not_on_top');
    await driver.closeView({ userId: 'U1', viewId: pushed?.id ?? '' });
    expect(last(receiver)).toMatchObject({
      type: 'view_closed',
      view: { id: pushed?.id },
      is_cleared: false,
    });
    expect(standin.openViews('U1').map((v) => v.id)).toEqual([root]);
  });

  it('clears the whole stack with the X, telling the view on top that the stack was cleared', async () => {
    const root = await openModal(standin, modal());
    const { body } = await callApi(standin, 'views.push', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal({ title: plain('Review'), notify_on_close: true }),
    });
    const pushed = (body.view as { id: string }).id;
    await driver.closeView({ userId: 'U1', viewId: pushed, clearStack: true });
    expect(last(receiver)).toMatchObject({ type: 'view_closed', view: { id: pushed }, is_cleared: true });
    expect(standin.openViews('U1')).toEqual([]);
    expect([standin.view(root)?.open, standin.view(pushed)?.open]).toEqual([false, false]);
  });

  it('asks the app for external select options as the person types, and lets them pick only those', async () => {
    const city = { type: 'external_select', action_id: 'pick', min_query_length: 2 };
    const viewId = await openModal(
      standin,
      modal({ blocks: [{ type: 'input', block_id: 'city', label: plain('City'), element: city }] }),
    );
    receiver.reply = () => ({ body: { options: [option('Osaka', 'o3')] } });
    const early = await driver
      .suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'o' })
      .catch((e: unknown) => e);
    expect((early as StandinError).code).toBe('query_too_short');
    expect(await driver.suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'os' })).toEqual([
      option('Osaka', 'o3'),
    ]);
    expect(last(receiver)).toMatchObject({
      type: 'block_suggestion',
      team,
      user: userObj,
      token: VERIFICATION_TOKEN,
      container: { type: 'view', view_id: viewId },
      action_id: 'pick',
      block_id: 'city',
      value: 'os',
      view: { id: viewId },
    });
    receiver.reply = () => ({});
    const unsuggested = await driver
      .submitView({ userId: 'U1', viewId, values: { city: 'o4' } })
      .catch((e: unknown) => e);
    expect((unsuggested as StandinError).code).toBe('option_not_found');
    await driver.submitView({ userId: 'U1', viewId, values: { city: 'o3' } });
    expect((last(receiver).view as { state: unknown }).state).toEqual({
      values: {
        city: {
          pick: {
            type: 'external_select',
            selected_option: { ...option('Osaka', 'o3'), text: { ...plain('Osaka'), emoji: true } },
          },
        },
      },
    });
  });

  it('refuses an answer to block_suggestion that Slack would not show', async () => {
    const city = { type: 'external_select', action_id: 'pick', min_query_length: 1 };
    const viewId = await openModal(
      standin,
      modal({ blocks: [{ type: 'input', block_id: 'city', label: plain('City'), element: city }] }),
    );
    const many = Array.from({ length: 101 }, (_, i) => option(`c${i}`));
    for (const body of [{ options: many }, { options: [option('x'.repeat(76))] }, {}]) {
      receiver.reply = () => ({ body });
      const thrown = await driver
        .suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'c' })
        .catch((e: unknown) => e);
      expect((thrown as StandinError).code).toBe('invalid_suggestions');
    }
  });

  it('refuses to close a view without notify_on_close, or one that belongs to someone else', async () => {
    const viewId = await openModal(standin);
    const silent = await driver.closeView({ userId: 'U1', viewId }).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(StandinError);
    expect((silent as StandinError).code).toBe('notify_on_close_not_set');
    const foreign = await driver.submitView({ userId: 'U2', viewId, values: {} }).catch((e: unknown) => e);
    expect((foreign as StandinError).code).toBe('view_not_owned');
  });
});
