// The messages beside the cards (a run's result and thread, its "working…" message, a sign-in prompt), made
// with the outbox's kind of client (429s handed back, src/slack/messages.ts): posted and edited as asked, a 429
// met by its Retry-After and a passing failure by back-off instead of losing the message, a refusal reported
// with Slack's code. The waits are recorded, not spent.
import { describe, expect, it } from 'vitest';
import { MessageError, retryingMessages } from '../../src/slack/messages.js';
import { recordingClock } from '../support/recording-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-messages-test';
const message = (text: string) => ({
  text,
  blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }],
});

describe('messages beside the cards', () => {
  const slack = standinWithMessages({ botToken: TOKEN });
  const callsIn = (channel: string, method: string) =>
    slack.standin.calls.filter((c) => c.method === method && c.args.channel === channel);

  it('posts in a thread without link previews, resolves with the ts, and edits that message', async () => {
    const dm = slack.standin.dmChannelOf('U1');
    const parent = await slack.messages.post({ channel: dm }, message('the thread'));
    const ts = await slack.messages.post(
      { channel: dm, threadTs: parent },
      message('see https://example.com'),
    );
    expect(callsIn(dm, 'chat.postMessage')[1]?.args).toMatchObject({
      thread_ts: parent,
      // Form-encoded, as the Web API client sends it.
      unfurl_links: 'false',
      unfurl_media: 'false',
    });
    await slack.messages.update({ channel: dm, ts }, message('done'));
    expect(slack.standin.message(dm, ts)?.text).toBe('done');
  });

  it('posts again after a 429’s Retry-After, and after a 5xx with back-off, and resolves with that post', async () => {
    const dm = slack.standin.dmChannelOf('U2');
    const clock = recordingClock();
    slack.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 3 });
    slack.standin.failNext('chat.postMessage', 'internal_error', { status: 503 });
    slack.standin.failNext('chat.postMessage', 'internal_error', { status: 503 });
    const ts = await retryingMessages(slack.clients, clock).post({ channel: dm }, message('your result'));
    expect(callsIn(dm, 'chat.postMessage').map((c) => c.ok)).toEqual([false, false, false, true]);
    expect(clock.waits).toEqual([3_000, 1_000, 2_000]);
    expect(slack.standin.messagesIn(dm).map((m) => m.ts)).toEqual([ts]);
  });

  it("rejects a post Slack refuses with a MessageError naming Slack's code, without trying again", async () => {
    const dm = slack.standin.dmChannelOf('U3');
    slack.standin.failNext('chat.postMessage', 'channel_not_found');
    const refused = await slack.messages.post({ channel: dm }, message('x')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MessageError);
    expect(refused).toMatchObject({ code: 'slack_post_failed', slackError: 'channel_not_found' });
    expect(callsIn(dm, 'chat.postMessage')).toHaveLength(1);
  });

  it('gives up on a failure that keeps coming after five tries, naming it', async () => {
    const dm = slack.standin.dmChannelOf('U4');
    const clock = recordingClock();
    for (let i = 0; i < 5; i++) slack.standin.failNext('chat.update', 'internal_error', { status: 503 });
    const ts = await slack.messages.post({ channel: dm }, message('working…'));
    const update = retryingMessages(slack.clients, clock).update({ channel: dm, ts }, message('done'));
    await expect(update).rejects.toMatchObject({ code: 'slack_update_failed', slackError: 'http_503' });
    expect(clock.waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(slack.standin.message(dm, ts)?.text).toBe('working…');
  });
});
