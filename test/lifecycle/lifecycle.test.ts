import { describe, expect, it } from 'vitest';
import { Lifecycle, LifecycleError } from '../../src/lifecycle.js';
import { manualClock } from '../support/answering.js';

describe('Lifecycle', () => {
  it('stops the parts in the reverse of the order they started, each after the previous one settled', async () => {
    const stopped: string[] = [];
    const parts = new Lifecycle();
    for (const part of ['redis', 'slack', 'mcp']) {
      parts.push(part, async () => {
        await Promise.resolve();
        stopped.push(part);
      });
    }
    await parts.stop();
    expect(stopped).toEqual(['mcp', 'slack', 'redis']);
  });

  it('stops every part even when some fail, then throws a LifecycleError naming the failed ones', async () => {
    const stopped: string[] = [];
    const parts = new Lifecycle();
    const boom = new Error('boom');
    parts.push('redis', () => void stopped.push('redis'));
    parts.push('slack', () => Promise.reject(boom));
    parts.push('mcp', () => {
      throw new Error('mcp');
    });
    const error: unknown = await parts.stop().catch((e: unknown) => e);
    expect(stopped).toEqual(['redis']);
    expect(error).toBeInstanceOf(LifecycleError);
    const failure = error as LifecycleError;
    expect(failure.code).toBe('stop_failed');
    expect(failure.parts).toEqual(['mcp', 'slack']);
    expect((failure.cause as AggregateError).errors[1]).toBe(boom);
  });

  it('stops each part once: a second stop runs only what was pushed since', async () => {
    const stopped: string[] = [];
    const parts = new Lifecycle();
    parts.push('redis', () => void stopped.push('redis'));
    await parts.stop();
    parts.push('slack', () => void stopped.push('slack'));
    await parts.stop();
    expect(stopped).toEqual(['redis', 'slack']);
  });

  it('makes a stop called during a stop wait for it: no part out of order, no early end', async () => {
    // A second signal while the first one's stop waits on a part (Ctrl-C, then an orchestrator's SIGTERM).
    const events: string[] = [];
    const parts = new Lifecycle();
    let release = (): void => undefined;
    parts.push('redis', () => void events.push('redis stopped'));
    parts.push('slack', () => new Promise<void>((resolve) => (release = resolve)));
    const first = parts.stop().then(() => events.push('first stop done'));
    const second = parts.stop().then(() => events.push('second stop done'));
    // Both stops have had every turn they can take while slack's stop waits.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['redis stopped', 'first stop done', 'second stop done']);
  });

  it("gives up on a part that does not stop once the stop's time is spent, says which, and stops the rest", async () => {
    const stopped: string[] = [];
    const warned: object[] = [];
    const clock = manualClock();
    const parts = new Lifecycle({ clock, logger: { warn: (obj) => void warned.push(obj) } });
    parts.push('redis', () => void stopped.push('redis'));
    // A part waiting on a Redis that does not answer.
    parts.push('hung', () => new Promise<void>(() => undefined));
    const stopping = parts.stop();
    clock.fire();
    await stopping;
    expect(stopped).toEqual(['redis']);
    expect(warned).toEqual([{ part: 'hung', waitedMs: 20_000 }]);
  });
});
