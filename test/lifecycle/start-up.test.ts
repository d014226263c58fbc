// A start-up its stop signal ends (src/start-up.ts): the composition root's parts as stand-ins that record
// what started and stopped, one of them starting until the test says so (Slack's auth.test held).
import { describe, expect, it } from 'vitest';
import { LifecycleError, type Lifecycle } from '../../src/lifecycle.js';
import { StartStoppedError, startStoppable } from '../../src/start-up.js';

const logger = { error: () => undefined, warn: () => undefined };

/** A promise and its resolve, for a part that starts (or stops) when the test says. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A part that starts after a turn (as one awaiting Redis does) and records its stop in `events`. */
async function part(parts: Lifecycle, name: string, events: string[]): Promise<void> {
  await Promise.resolve();
  parts.push(name, () => void events.push(`${name} stopped`));
}

describe('a start-up with a stop signal', () => {
  it('on the signal: tells the hearers first, stops what started without waiting for the part under way', async () => {
    const events: string[] = [];
    const stopping = new AbortController();
    const slackAnswers = deferred();
    const slackStopped = deferred();
    const slackStarting = deferred();
    const started = startStoppable({ signal: stopping.signal, logger }, async (parts, startUp) => {
      await startUp.step(() => part(parts, 'redis', events));
      startUp.step(() => parts.push('mcp', () => void events.push('mcp stopped')));
      startUp.onStop(() => events.push('mcp closing'));
      await startUp.step(async () => {
        slackStarting.resolve();
        await slackAnswers.promise;
        parts.push('slack', () => {
          events.push('slack stopped');
          slackStopped.resolve();
        });
      });
      startUp.step(() => events.push('question work started'));
      return 'up';
    });
    await slackStarting.promise;
    stopping.abort();
    const error: unknown = await started.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartStoppedError);
    expect((error as StartStoppedError).code).toBe('stopped_during_start');
    expect(events).toEqual(['mcp closing', 'mcp stopped', 'redis stopped']);
    // Slack answers late: what its start pushed is stopped then, and nothing after it starts.
    slackAnswers.resolve();
    await slackStopped.promise;
    expect(events).toEqual(['mcp closing', 'mcp stopped', 'redis stopped', 'slack stopped']);
  });

  it('starts nothing when the signal came before the start', async () => {
    const stopping = new AbortController();
    stopping.abort();
    const events: string[] = [];
    const started = startStoppable({ signal: stopping.signal, logger }, async (parts, startUp) => {
      await startUp.step(() => part(parts, 'redis', events));
      return 'up';
    });
    await expect(started).rejects.toMatchObject({ code: 'stopped_during_start' });
    expect(events).toEqual([]);
  });

  it("says when a part failed to stop on the signal (the Lifecycle's failure its cause)", async () => {
    const stopping = new AbortController();
    const slackStarting = deferred();
    const started = startStoppable({ signal: stopping.signal, logger }, async (parts, startUp) => {
      parts.push('redis', () => Promise.reject(new Error('redis would not quit')));
      slackStarting.resolve();
      // Slack never answers.
      return startUp.step(() => new Promise<never>(() => undefined));
    });
    await slackStarting.promise;
    stopping.abort();
    const error: unknown = await started.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StartStoppedError', code: 'stop_failed' });
    expect((error as StartStoppedError).cause).toBeInstanceOf(LifecycleError);
  });

  it('returns the started bot, stopping nothing, when no signal comes', async () => {
    const events: string[] = [];
    const stopping = new AbortController();
    const started = await startStoppable({ signal: stopping.signal, logger }, async (parts, startUp) => {
      await startUp.step(() => part(parts, 'redis', events));
      return 'up';
    });
    expect(started).toBe('up');
    expect(events).toEqual([]);
  });

  it('stops the parts before one that failed to start, then throws its failure', async () => {
    const events: string[] = [];
    const failure = new Error('slack refused the token');
    const started = startStoppable({ logger }, async (parts, startUp) => {
      await startUp.step(() => part(parts, 'redis', events));
      return startUp.step(() => Promise.reject(failure));
    });
    await expect(started).rejects.toBe(failure);
    expect(events).toEqual(['redis stopped']);
  });
});
