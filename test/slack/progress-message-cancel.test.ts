// The "working…" message of a person's run that can be cancelled, against the Slack stand-in with a clock the test
// moves: posted with its Cancel button once the run has gone on a while without progress (a quick run posts only
// its result), posted at once at a first progress update instead, and, when cancelled, saying by whom, buttonless.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { ProgressMessage } from '../../src/slack/progress-message.js';
import { ManualClock } from './manual-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-progress-cancel-test';
const CANCEL = 'mcp_cancel_run';

describe('the working… message of a run its person can cancel', () => {
  const slack = standinWithMessages({ botToken: TOKEN });
  function progressFor(userId: string, clock: ManualClock, cancellable = true): ProgressMessage {
    const place = {
      origin: { userId },
      server: 'fixture',
      tool: 'build',
      channel: slack.standin.dmChannelOf(userId),
      locale: 'en' as const,
    };
    const opts = {
      messages: slack.messages,
      logger: createLogger('silent'),
      clock,
      cancelShownAfterMs: 2000,
    };
    const target = cancellable ? { run: `run-${userId}`, owner: userId } : undefined;
    return new ProgressMessage(place, { ...opts, progressIntervalMs: 3000 }, target);
  }
  const callsTo = (userId: string, method: string) =>
    slack.standin.calls.filter(
      (c) => c.method === method && c.args.channel === slack.standin.dmChannelOf(userId),
    );

  it('is posted with its Cancel button once the run has gone on without progress, and says who cancelled it', async () => {
    const clock = new ManualClock();
    const progress = progressFor('U1', clock);
    progress.started();
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([2000]);
    clock.fire(2000);
    const posted = await slack.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === slack.standin.dmChannelOf('U1'),
    );
    expect(JSON.stringify(posted.args.blocks)).toContain(CANCEL);
    expect(JSON.stringify(posted.args.blocks)).toContain(
      JSON.stringify(JSON.stringify({ r: 'run-U1', u: 'U1' })).slice(1, -1),
    );

    await progress.cancelled();
    const [update] = callsTo('U1', 'chat.update');
    expect(update?.args.text).toBe('build on fixture was cancelled by <@U1>.');
    expect(JSON.stringify(update?.args.blocks)).not.toContain(CANCEL);
    expect(clock.pending.size).toBe(0);
  });

  it('posts nothing for a run that ended before it was shown', async () => {
    const clock = new ManualClock();
    const progress = progressFor('U2', clock);
    progress.started();
    await progress.end(false);
    expect(clock.pending.size).toBe(0);
    expect(callsTo('U2', 'chat.postMessage')).toHaveLength(0);
  });

  it('is posted at a first progress update without waiting, once, with the button', async () => {
    const clock = new ManualClock();
    const progress = progressFor('U3', clock);
    progress.started();
    progress.update({ progress: 1, total: 4, message: 'fetch' });
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([0]);
    clock.fire();
    const posted = await slack.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === slack.standin.dmChannelOf('U3'),
    );
    expect(JSON.stringify(posted.args.blocks)).toContain('25% · fetch');
    expect(JSON.stringify(posted.args.blocks)).toContain(CANCEL);
    await progress.end(false);
    expect(callsTo('U3', 'chat.postMessage')).toHaveLength(1);
    expect(JSON.stringify(callsTo('U3', 'chat.update').at(-1)?.args.blocks)).not.toContain(CANCEL);
  });

  it('is not posted without progress for a run that cannot be cancelled (an automation’s)', () => {
    const clock = new ManualClock();
    progressFor('U4', clock, false).started();
    expect(clock.pending.size).toBe(0);
  });
});
