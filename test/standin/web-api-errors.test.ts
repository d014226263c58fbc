import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, TRIGGER_TTL_MS, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi, cardBlocks, modal, option, plain } from './helpers.js';

let now = 1_800_000_000_000;
let standin: SlackStandin;

beforeEach(async () => {
  now = 1_800_000_000_000;
  standin = await startSlackStandin({ botToken: BOT_TOKEN, clock: () => now });
});
afterEach(() => standin.close());

describe('Slack stand-in: authentication and routing errors', () => {
  it('answers not_authed without a token and invalid_auth with a wrong one, both HTTP 200', async () => {
    const none = await callApi(standin, 'auth.test', {}, { token: null });
    const wrong = await callApi(standin, 'auth.test', {}, { token: 'xoxb-other' });
    expect([none.status, none.body]).toEqual([200, { ok: false, error: 'not_authed' }]);
    expect([wrong.status, wrong.body]).toEqual([200, { ok: false, error: 'invalid_auth' }]);
  });

  it('accepts the token as a form argument, as auth.test sends it', async () => {
    const reply = await callApi(standin, 'auth.test', { token: BOT_TOKEN }, { token: null });
    expect(reply.body.ok).toBe(true);
  });

  it('answers unknown_method for a method it does not implement', async () => {
    expect((await callApi(standin, 'chat.meMessage', { channel: 'C1' })).body).toEqual({
      ok: false,
      error: 'unknown_method',
    });
  });
});

describe('Slack stand-in: trigger_id rules', () => {
  it('answers invalid_trigger_id for a trigger it never issued', async () => {
    const reply = await callApi(standin, 'views.open', { trigger_id: '1.2.abc', view: modal() });
    expect(reply.body).toEqual({ ok: false, error: 'invalid_trigger_id' });
  });

  it('answers expired_trigger_id once more than 3 s have passed by its clock', async () => {
    const trigger = standin.issueTriggerId('U1');
    now += TRIGGER_TTL_MS + 1;
    const reply = await callApi(standin, 'views.open', { trigger_id: trigger, view: modal() });
    expect(reply.body).toEqual({ ok: false, error: 'expired_trigger_id' });
  });

  it('accepts a trigger exactly 3 s old', async () => {
    const trigger = standin.issueTriggerId('U1');
    now += TRIGGER_TTL_MS;
    expect((await callApi(standin, 'views.open', { trigger_id: trigger, view: modal() })).body.ok).toBe(true);
  });

  it('answers exchanged_trigger_id when a trigger is used a second time', async () => {
    const trigger = standin.issueTriggerId('U1');
    expect((await callApi(standin, 'views.open', { trigger_id: trigger, view: modal() })).body.ok).toBe(true);
    const again = await callApi(standin, 'views.push', { trigger_id: trigger, view: modal() });
    expect(again.body).toEqual({ ok: false, error: 'exchanged_trigger_id' });
  });

  it('answers push_limit_reached beyond a root and two pushes', async () => {
    for (const method of ['views.open', 'views.push', 'views.push']) {
      const reply = await callApi(standin, method, {
        trigger_id: standin.issueTriggerId('U1'),
        view: modal(),
      });
      expect(reply.body.ok).toBe(true);
    }
    const fourth = await callApi(standin, 'views.push', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal(),
    });
    expect(fourth.body).toEqual({ ok: false, error: 'push_limit_reached' });
  });
});

describe('Slack stand-in: Block Kit errors', () => {
  const dm = (): string => standin.dmChannelOf('U1');

  it('answers invalid_blocks with the reason for a too-long option text', async () => {
    const select = { type: 'static_select', action_id: 's', options: [option('o'.repeat(76), 'v')] };
    const blocks = [{ type: 'actions', elements: [select] }];
    const reply = await callApi(standin, 'chat.postMessage', { channel: dm(), text: 't', blocks });
    expect(reply.body).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]'],
      response_metadata: {
        messages: [
          '[ERROR] must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]',
        ],
      },
    });
  });

  it('answers invalid_blocks for too many blocks and for an input block in a message', async () => {
    const many = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    const tooMany = await callApi(standin, 'chat.postMessage', { channel: dm(), blocks: many });
    expect(tooMany.body.response_metadata).toEqual({
      messages: ['[ERROR] must be less than 51 items [json-pointer:/blocks]'],
    });
    const inputBlock = {
      type: 'input',
      label: plain('x'),
      element: { type: 'plain_text_input', action_id: 'v' },
    };
    const withInput = await callApi(standin, 'chat.postMessage', { channel: dm(), blocks: [inputBlock] });
    expect(withInput.body.error).toBe('invalid_blocks');
    expect(withInput.body.response_metadata).toEqual({
      messages: [
        '[ERROR] input blocks are only allowed in modals and Home tabs [json-pointer:/blocks/0/type]',
      ],
    });
  });

  it('answers invalid_blocks on chat.update too, leaving the message unchanged', async () => {
    const posted = await callApi(standin, 'chat.postMessage', {
      channel: dm(),
      text: 'card',
      blocks: cardBlocks(),
    });
    const ts = String(posted.body.ts);
    const reply = await callApi(standin, 'chat.update', { channel: dm(), ts, blocks: [{ type: 'nope' }] });
    expect(reply.body.error).toBe('invalid_blocks');
    expect(standin.message(dm(), ts)?.updates).toBe(0);
  });

  it('answers invalid_arguments with response_metadata for a too-long modal title', async () => {
    const reply = await callApi(standin, 'views.open', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal({ title: plain('A title that is too long!') }),
    });
    expect(reply.body).toEqual({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: {
        messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'],
      },
    });
  });

  it('answers msg_too_long over 40000 characters and no_text with neither text nor blocks', async () => {
    expect(
      (await callApi(standin, 'chat.postMessage', { channel: dm(), text: 'x'.repeat(40_001) })).body.error,
    ).toBe('msg_too_long');
    expect((await callApi(standin, 'chat.postMessage', { channel: dm() })).body.error).toBe('no_text');
  });
});

describe('Slack stand-in: lookup and conflict errors', () => {
  it('answers message_not_found for chat.update of an unknown ts', async () => {
    const reply = await callApi(standin, 'chat.update', {
      channel: standin.dmChannelOf('U1'),
      ts: '1.000001',
      text: 'x',
    });
    expect(reply.body).toEqual({ ok: false, error: 'message_not_found' });
  });

  it('answers channel_not_found for a DM id it never handed out', async () => {
    expect((await callApi(standin, 'chat.postMessage', { channel: 'D0NOPE', text: 'x' })).body.error).toBe(
      'channel_not_found',
    );
  });

  it('answers not_found for an unknown view and hash_conflict for a stale hash', async () => {
    const unknown = await callApi(standin, 'views.update', { view_id: 'V0NOPE', view: modal() });
    expect(unknown.body).toEqual({ ok: false, error: 'not_found' });
    const opened = await callApi(standin, 'views.open', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal(),
    });
    const { id, hash } = opened.body.view as { id: string; hash: string };
    expect((await callApi(standin, 'views.update', { view_id: id, hash, view: modal() })).body.ok).toBe(true);
    const stale = await callApi(standin, 'views.update', { view_id: id, hash, view: modal() });
    expect(stale.body).toEqual({ ok: false, error: 'hash_conflict' });
  });
});

describe('Slack stand-in: fault injection', () => {
  it('answers ratelimited with HTTP 429 and Retry-After, once', async () => {
    standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 7 });
    const channel = standin.dmChannelOf('U1');
    const limited = await callApi(standin, 'chat.postMessage', { channel, text: 'x' });
    expect([limited.status, limited.retryAfter, limited.body]).toEqual([
      429,
      '7',
      { ok: false, error: 'ratelimited' },
    ]);
    const next = await callApi(standin, 'chat.postMessage', { channel, text: 'x' });
    expect([next.status, next.body.ok]).toEqual([200, true]);
    expect(standin.calls.map((c) => [c.method, c.ok, c.error])).toEqual([
      ['chat.postMessage', false, 'ratelimited'],
      ['chat.postMessage', true, undefined],
    ]);
  });

  it('injects any error code with HTTP 200 by default, or the given status', async () => {
    standin.failNext('views.open', 'internal_error', { status: 500 });
    standin.failNext('views.open', 'fatal_error');
    const first = await callApi(standin, 'views.open', {});
    const second = await callApi(standin, 'views.open', {});
    expect([first.status, first.body.error, second.status, second.body.error]).toEqual([
      500,
      'internal_error',
      200,
      'fatal_error',
    ]);
  });
});
