// The links of -32042 answers being waited on: an answer is done once the server completed every one of its
// links, once, even one completed just before the watch began (remembered a minute); a watch lapses after its
// time.
import { describe, expect, it } from 'vitest';
import { EARLY_COMPLETION_MS, UrlCompletions } from '../../src/slack/url-completions.js';

/** Timers that fire only when the test says so; `delays` holds each one's delay (ms) in the order set. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  const delays: number[] = [];
  let id = 0;
  return {
    pending,
    delays,
    schedule: (run: () => void, ms: number) => {
      const timer = ++id;
      pending.set(timer, run);
      delays.push(ms);
      return () => void pending.delete(timer);
    },
    fireAll: () => {
      for (const [key, run] of [...pending]) {
        pending.delete(key);
        run();
      }
    },
  };
}

describe('UrlCompletions', () => {
  it('reports an answer done once every one of its links completed, once, and ignores unknown ids', () => {
    const completions = new UrlCompletions({ clock: manualTimers() });
    const done: string[] = [];
    completions.watch('ops', ['a', 'b'], () => done.push('ab'));
    completions.completed('ops', 'a');
    completions.completed('other-server', 'b');
    completions.completed('ops', 'nobody-waits');
    expect(done).toEqual([]);
    completions.completed('ops', 'b');
    completions.completed('ops', 'b');
    expect(done).toEqual(['ab']);
  });

  it('tells every answer waiting on the same link', () => {
    const completions = new UrlCompletions({ clock: manualTimers() });
    const done: string[] = [];
    completions.watch('ops', ['a'], () => done.push('first'));
    completions.watch('ops', ['a'], () => done.push('second'));
    completions.completed('ops', 'a');
    expect(done).toEqual(['first', 'second']);
  });

  it('forgets an answer whose watch lapsed, and every answer once closed', () => {
    const timers = manualTimers();
    const completions = new UrlCompletions({ clock: timers });
    const done: string[] = [];
    completions.watch('ops', ['a'], () => done.push('lapsed'));
    timers.fireAll();
    completions.watch('ops', ['b'], () => done.push('closed'));
    completions.close();
    expect(timers.pending.size).toBe(0);
    completions.completed('ops', 'a');
    completions.completed('ops', 'b');
    expect(done).toEqual([]);
  });

  it('tells a watch that ends before its links are done that it lapsed, and never one that completed', () => {
    const timers = manualTimers();
    const completions = new UrlCompletions({ clock: timers });
    const told: string[] = [];
    const watch = (id: string) =>
      completions.watch(
        'ops',
        [id],
        () => told.push(`${id} done`),
        () => told.push(`${id} lapsed`),
      );
    watch('a');
    watch('b');
    completions.completed('ops', 'b');
    timers.fireAll();
    watch('c');
    completions.close();
    expect(told).toEqual(['b done', 'a lapsed', 'c lapsed']);
  });

  it('counts a link the server completed just before the watch began (its links not yet posted)', () => {
    const completions = new UrlCompletions({ clock: manualTimers() });
    const done: string[] = [];
    completions.completed('ops', 'a');
    completions.watch('ops', ['a', 'b'], () => done.push('ab'));
    expect(done).toEqual([]);
    completions.completed('ops', 'b');
    completions.completed('ops', 'c');
    completions.watch('ops', ['c'], () => done.push('c'));
    expect(done).toEqual(['ab', 'c']);
  });

  it('forgets an early completion after EARLY_COMPLETION_MS, the oldest past 1,000, and all once closed', () => {
    const timers = manualTimers();
    const completions = new UrlCompletions({ clock: timers });
    const done: string[] = [];
    completions.completed('ops', 'lapses');
    expect(timers.delays).toEqual([EARLY_COMPLETION_MS]);
    timers.fireAll();
    for (let i = 0; i <= 1_000; i++) completions.completed('ops', `n${i}`);
    expect(timers.pending.size).toBe(1_000);
    for (const id of ['lapses', 'n0', 'n1']) completions.watch('ops', [id], () => done.push(id));
    expect(done).toEqual(['n1']);
    completions.close();
    completions.completed('ops', 'after-close');
    expect(timers.pending.size).toBe(0);
  });
});
