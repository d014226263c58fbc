// The "working…" message of a tool call against the Slack stand-in, with a clock the test moves: posted at
// the first progress update, then updated at most once per interval with the latest update, then marked done;
// through the outbox, as the bot sends it.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { ProgressMessage } from '../../src/slack/progress-message.js';
import { ManualClock } from './manual-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-progress-test';

describe('the working… message', () => {
  const slack = standinWithMessages({ botToken: TOKEN });
  function progressFor(userId: string, clock: ManualClock, logger = createLogger('silent')): ProgressMessage {
    const place = {
      origin: { userId },
      server: 'fixture',
      tool: 'build',
      channel: slack.standin.dmChannelOf(userId),
      locale: 'en' as const,
    };
    const opts = { messages: slack.messages, logger, clock };
    return new ProgressMessage(place, { ...opts, progressIntervalMs: 3000 });
  }
  const callsTo = (channel: string, method: string) =>
    slack.standin.calls.filter((c) => c.method === method && c.args.channel === channel);

  it('posts at once, then shows only the latest update once per interval, then says done', async () => {
    const clock = new ManualClock();
    const progress = progressFor('U1', clock);
    const dm = slack.standin.dmChannelOf('U1');
    progress.update({ progress: 1, total: 4, message: 'fetch' });
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([0]);
    clock.fire();
    const posted = await slack.standin.waitForCall('chat.postMessage', (c) => c.args.channel === dm);
    expect(JSON.stringify(posted.args.blocks)).toContain('25% · fetch');

    progress.update({ progress: 2, total: 4, message: 'compile' });
    progress.update({ progress: 3, total: 4, message: 'test' });
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([3000]);
    clock.fire(3000);
    const updated = await slack.standin.waitForCall('chat.update', (c) => c.args.channel === dm);
    expect(JSON.stringify(updated.args.blocks)).toContain('75% · test');

    progress.update({ progress: 4, total: 4, message: 'package' });
    await progress.end(false);
    expect(clock.pending.size).toBe(0);
    expect(callsTo(dm, 'chat.postMessage')).toHaveLength(1);
    const updates = callsTo(dm, 'chat.update');
    expect(updates).toHaveLength(2);
    expect(JSON.stringify(updates[1]?.args.blocks)).toContain('is done');
  });

  it('posts nothing for a call that ended before its first update was shown', async () => {
    const clock = new ManualClock();
    const progress = progressFor('U2', clock);
    progress.update({ progress: 1 });
    await progress.end(true);
    expect(clock.pending.size).toBe(0);
    expect(callsTo(slack.standin.dmChannelOf('U2'), 'chat.postMessage')).toHaveLength(0);
  });

  it('ends without failing the run when Slack refuses to mark the message done, and logs why', async () => {
    const clock = new ManualClock();
    const logged: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const progress = progressFor('U3', clock, createLogger('warn', sink));
    progress.update({ progress: 1, total: 2 });
    clock.fire();
    await slack.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === slack.standin.dmChannelOf('U3'),
    );
    // Someone deleted the "working…" message: its final update is refused.
    slack.standin.failNext('chat.update', 'message_not_found');
    await expect(progress.end(false)).resolves.toBeUndefined();
    expect(logged.join('')).toContain('"msg":"progress message failed"');
    expect(logged.join('')).toContain('message_not_found');
  });
});
