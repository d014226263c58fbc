import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { type RecordedCall, type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { OUTBOX_DEFAULT_DEADLINE_MS, Outbox, type OutboxJob } from '../../src/slack/outbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { quiet, standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-outbox-test';
const RETRY_BASE_MS = 200;

let standin: SlackStandin;
let client: webApi.WebClient;
let outbox: Outbox | undefined;

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN });
  client = standinClient(standin, BOT_TOKEN);
});
afterEach(async () => {
  await outbox?.close();
  outbox = undefined;
  await standin.close();
});

async function startOutbox(opts: { clock?: () => number; channelPaceMs?: number } = {}): Promise<Outbox> {
  outbox = await Outbox.open({
    url: redisUrl(),
    prefix: uniquePrefix(),
    logger: quiet,
    retryBaseMs: RETRY_BASE_MS,
    ...opts,
  });
  await outbox.start(slackHandler(singleWorkspace(client)), classifySlackError);
  return outbox;
}

const posts = (): RecordedCall[] => standin.calls.filter((c) => c.method === 'chat.postMessage');
const gap = (calls: RecordedCall[]): number => (calls[1]?.at ?? 0) - (calls[0]?.at ?? 0);

function card(channel: string, text = 'A question for you'): OutboxJob {
  return {
    method: 'chat.postMessage',
    channel,
    args: { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
  };
}

describe('classifySlackError', () => {
  const thrown = async (): Promise<unknown> =>
    client.chat.postMessage({ channel: standin.dmChannelOf('U1'), text: 'x' }).then(
      () => undefined,
      (err: unknown) => err,
    );

  it('waits Retry-After on ratelimited', async () => {
    standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 3 });
    expect(classifySlackError(await thrown())).toEqual({
      retry: true,
      retryAfterMs: 3000,
      error: 'ratelimited',
    });
  });

  it('retries a 5xx and gives up on another HTTP status', async () => {
    standin.failNext('chat.postMessage', 'internal_error', { status: 502 });
    standin.failNext('chat.postMessage', 'not_found', { status: 404 });
    expect(classifySlackError(await thrown())).toEqual({ retry: true, error: 'http_502' });
    expect(classifySlackError(await thrown())).toEqual({ retry: false, error: 'http_404' });
  });

  it("fails at once on a platform error such as invalid_blocks, keeping Slack's code", async () => {
    standin.failNext('chat.postMessage', 'invalid_blocks');
    expect(classifySlackError(await thrown())).toEqual({ retry: false, error: 'invalid_blocks' });
  });

  it('retries a platform error that reports a fault on Slack’s side', async () => {
    standin.failNext('chat.postMessage', 'service_unavailable');
    expect(classifySlackError(await thrown())).toEqual({ retry: true, error: 'service_unavailable' });
  });

  it('retries when the request never got an answer, and gives up on anything unknown', () => {
    expect(classifySlackError({ code: webApi.ErrorCode.RequestError })).toEqual({
      retry: true,
      error: 'request_error',
    });
    expect(classifySlackError(new Error('boom'))).toEqual({ retry: false, error: 'unexpected_error' });
  });
});

describe('Slack calls through the outbox', () => {
  it('posts a card and returns its ts and channel, then updates it', async () => {
    const box = await startOutbox();
    const dm = standin.dmChannelOf('U1');
    const posted = await box.send(card(dm));
    expect(posted).toMatchObject({ ok: true, channel: dm });
    const ts = posted.ok ? (posted.ts ?? '') : '';
    expect(standin.message(dm, ts)?.text).toBe('A question for you');

    const updated = await box.send({ method: 'chat.update', channel: dm, args: { ts, text: 'Answered' } });
    expect(updated).toMatchObject({ ok: true, ts });
    expect(standin.message(dm, ts)?.text).toBe('Answered');
  });

  it('retries a ratelimited post no sooner than its Retry-After, and it goes through', async () => {
    const box = await startOutbox();
    standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    expect(await box.send(card(standin.dmChannelOf('U1')))).toMatchObject({ ok: true });
    expect(posts().map((c) => c.ok)).toEqual([false, true]);
    expect(gap(posts())).toBeGreaterThanOrEqual(1000);
  });

  it('retries a post answered with HTTP 500 after the backoff', async () => {
    const box = await startOutbox();
    standin.failNext('chat.postMessage', 'internal_error', { status: 500 });
    expect(await box.send(card(standin.dmChannelOf('U1')))).toMatchObject({ ok: true });
    expect(posts().map((c) => c.ok)).toEqual([false, true]);
    expect(gap(posts())).toBeGreaterThanOrEqual(RETRY_BASE_MS);
  });

  it('fails a card Slack refuses as invalid_blocks at once, without retrying', async () => {
    const box = await startOutbox();
    const tooLong = 'x'.repeat(3001);
    expect(await box.send(card(standin.dmChannelOf('U1'), tooLong))).toEqual({
      ok: false,
      error: 'invalid_blocks',
    });
    expect(posts().map((c) => c.error)).toEqual(['invalid_blocks']);
  });

  it('gives up with "deadline" when the Retry-After outlasts the deadline', async () => {
    const box = await startOutbox();
    standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 5 });
    const result = await box.send({ ...card(standin.dmChannelOf('U1')), deadline: Date.now() + 1_000 });
    expect(result).toEqual({ ok: false, error: 'deadline' });
    expect(posts()).toHaveLength(1);
  });

  it('makes a call sent without a deadline that waited its paced slot longer than the default deadline', async () => {
    // A flood's card updates wait their Tier 3 slots for ≈ 10 min; before, the default 5 min ran from send(),
    // so every update queued past 5 min gave up with "deadline" and its card kept its buttons. Both posts are
    // sent at once, so their slots are reserved back to back and the second's is a quarter of an interval
    // (250 ms) after the first's however long the first takes to be made (the channel pace plans three quarters
    // of Slack's burst of 2). The clock is moved past 5 min from send() but not from that slot once the second
    // is queued; the first's own deadline lies beyond.
    let now = Date.now();
    const box = await startOutbox({ clock: () => now, channelPaceMs: 1_000 });
    const dm = standin.dmChannelOf('U1');
    const first = box.send({ ...card(dm, 'first'), deadline: now + 2 * OUTBOX_DEFAULT_DEADLINE_MS });
    const second = box.send(card(dm, 'second'), () => {
      now += OUTBOX_DEFAULT_DEADLINE_MS + 100;
    });
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toMatchObject({ ok: true });
    expect(posts().map((c) => c.args.text)).toEqual(['first', 'second']);
  });

  it('makes a card update sent without a deadline that a Retry-After pushed past its default deadline', async () => {
    // Flood bench: an ended card's update refused once (429) near its default deadline gave up with "deadline"
    // and the card kept showing a question that was over. The clock is moved to 0.5 s before that deadline once
    // the update is queued; the stand-in then asks it to wait 1 s.
    let now = Date.now();
    const box = await startOutbox({ clock: () => now });
    const dm = standin.dmChannelOf('U1');
    const posted = await box.send(card(dm));
    const ts = posted.ok ? (posted.ts ?? '') : '';
    standin.failNext('chat.update', 'ratelimited', { retryAfterSec: 1 });
    const update: OutboxJob = { method: 'chat.update', channel: dm, args: { ts, text: 'Answered' } };
    const updated = await box.send(update, () => {
      now += OUTBOX_DEFAULT_DEADLINE_MS - 500;
    });
    expect(updated).toMatchObject({ ok: true, ts });
    expect(standin.calls.filter((c) => c.method === 'chat.update').map((c) => c.error)).toEqual([
      'ratelimited',
      undefined,
    ]);
    expect(standin.message(dm, ts)?.text).toBe('Answered');
  });
});
