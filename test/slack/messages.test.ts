// The messages beside the cards (a run's result and thread, its "working…" message, a sign-in prompt) go
// through the outbox (src/slack/messages.ts): posted and edited as asked, a 429 met by its Retry-After instead
// of losing the message, a refusal reported with Slack's code, a Redis blip waited out.
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/redis/index.js';
import { MessageError, outboxMessages } from '../../src/slack/messages.js';
import type { Outbox, OutboxJob } from '../../src/slack/outbox/index.js';
import { recordingClock } from '../support/recording-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-messages-test';
const unavailable = new StoreError('redis_unavailable', 'Redis unavailable during outbox send');
const message = (text: string) => ({
  text,
  blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }],
});

describe('messages through the outbox', () => {
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

  it('makes a post Slack rate-limits again after its Retry-After, and resolves with that post', async () => {
    const dm = slack.standin.dmChannelOf('U2');
    slack.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    const ts = await slack.messages.post({ channel: dm }, message('your result'));
    const [refused, made] = callsIn(dm, 'chat.postMessage');
    expect(refused?.error).toBe('ratelimited');
    expect(made?.ok).toBe(true);
    expect((made?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(slack.standin.message(dm, ts)?.text).toBe('your result');
  });

  it("rejects a post Slack refuses with a MessageError naming Slack's code", async () => {
    const dm = slack.standin.dmChannelOf('U3');
    slack.standin.failNext('chat.postMessage', 'channel_not_found');
    const refused = await slack.messages.post({ channel: dm }, message('x')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MessageError);
    expect(refused).toMatchObject({ code: 'slack_post_failed', slackError: 'channel_not_found' });
  });

  it('tries a post again under one key while Redis is unavailable, and posts it once though a refused try reached Redis', async () => {
    const dm = slack.standin.dmChannelOf('U4');
    const tries: OutboxJob[] = [];
    // The outbox's Redis: refused, then it took the job but its answer was lost, then back.
    const flaky: Pick<Outbox, 'send'> = {
      send: async (job) => {
        tries.push(job);
        if (tries.length === 1) throw unavailable;
        const sent = await slack.outbox.send(job);
        if (tries.length === 2) throw unavailable;
        return sent;
      },
    };
    const clock = recordingClock();
    const ts = await outboxMessages(flaky, clock).post({ channel: dm }, message('the result'));
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((job) => job.key)).size).toBe(1);
    expect(clock.waits).toEqual([100, 200]);
    expect(slack.standin.messagesIn(dm).map((m) => m.ts)).toEqual([ts]);
  });
});
