// A person's run cancelled from a Cancel click on another replica, in real Redis: the click marks the run, the
// replica running it reads the mark at its next check (once a second, here a clock the test moves) and aborts the
// run's signal; a second click finds it marked, a click after the run ended finds none; a mark made while the
// running replica could not reach Redis is still read once it can.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEndpointCalls } from '../../src/api/endpoint-calls.js';
import type { Clock } from '../../src/clock.js';
import { RUN_CANCELLED_REASON, RunCancels, type RunCancelsDeps } from '../../src/slack/run-cancels.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefix = uniquePrefix();
const [running, clicked] = [new Redis(redisUrl()), new Redis(redisUrl())];
afterAll(async () => {
  running.disconnect();
  clicked.disconnect();
  await deleteUnder(prefix);
});

const keyOf = (client: string, id: string): string => `${prefix}:{q}:mcpcall:${client}:${id}`;
const quiet = { warn: () => undefined };

/** Timers that fire only when the test says so; `scheduled` resolves once a timer is pending. */
class ManualClock implements Pick<Clock, 'schedule'> {
  private readonly pending: (() => void)[] = [];
  private waiting: (() => void) | undefined;
  schedule = (run: () => void): (() => void) => {
    this.pending.push(run);
    this.waiting?.();
    return () => undefined;
  };
  scheduled(): Promise<void> {
    if (this.pending.length > 0) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = resolve));
  }
  fire(): void {
    this.waiting = undefined;
    for (const run of this.pending.splice(0)) run();
  }
}

/** The replica running the run (its own connection and clock) and another replica where the clicks land. */
function replicas(marks: RunCancelsDeps['marks'] = new RedisEndpointCalls(running, keyOf)) {
  const clock = new ManualClock();
  const here = new RunCancels({ marks, clock, logger: quiet });
  const elsewhere = new RunCancels({
    marks: new RedisEndpointCalls(clicked, keyOf),
    clock: new ManualClock(),
    logger: quiet,
  });
  return { clock, here, elsewhere };
}

/** Resolves once `signal` aborts. */
const aborted = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

/** A call that goes on until its run's signal aborts, then resolves with 'stopped'. */
const untilAborted = (signal: AbortSignal) => async (): Promise<string> => {
  await aborted(signal);
  return 'stopped';
};

describe('a Cancel click on another replica than the run’s', () => {
  it('aborts the run at its replica’s next check; a second click finds it marked, a later one none', async () => {
    const { clock, here, elsewhere } = replicas();
    const run = here.start('U1');
    const done = run.run(untilAborted(run.signal));
    // The run is noted before its call starts; the check is scheduled then.
    await clock.scheduled();
    expect(await elsewhere.mark(run.target.run)).toBe('marked');
    expect(await elsewhere.mark(run.target.run)).toBe('already');
    expect(run.cancelled).toBe(false);
    clock.fire();
    expect(await done).toBe('stopped');
    expect(run.cancelled).toBe(true);
    expect(run.signal.reason).toBe(RUN_CANCELLED_REASON);
    expect(await elsewhere.mark(run.target.run)).toBe('none');
  });

  it('is read once the running replica reaches Redis again after missing a check', async () => {
    const marks = new RedisEndpointCalls(running, keyOf);
    let offline = true;
    const flaky: RunCancelsDeps['marks'] = {
      rememberGateway: (call, ttl) => marks.rememberGateway(call, ttl),
      adoptGateway: (call, ttl) => marks.adoptGateway(call, ttl),
      forgetGateway: (call) => marks.forgetGateway(call),
      markCancelled: (client, id) => marks.markCancelled(client, id),
      checkGateways: (calls, ttl) =>
        offline ? Promise.reject(new Error('Redis unreachable')) : marks.checkGateways(calls, ttl),
    };
    const { clock, here, elsewhere } = replicas(flaky);
    const run = here.start('U2');
    const done = run.run(untilAborted(run.signal));
    await clock.scheduled();
    expect(await elsewhere.mark(run.target.run)).toBe('marked');
    clock.fire();
    // The failed check schedules the next one: the mark waits in Redis for it.
    await clock.scheduled();
    expect(run.cancelled).toBe(false);
    offline = false;
    clock.fire();
    expect(await done).toBe('stopped');
    expect(run.cancelled).toBe(true);
  });

  it('changes nothing when read after the run’s call came back, before its entry was forgotten', async () => {
    const marks = new RedisEndpointCalls(running, keyOf);
    let forget = (): void => undefined;
    const forgotten = new Promise<void>((resolve) => (forget = resolve));
    const slow: RunCancelsDeps['marks'] = {
      rememberGateway: (call, ttl) => marks.rememberGateway(call, ttl),
      adoptGateway: (call, ttl) => marks.adoptGateway(call, ttl),
      forgetGateway: async (call) => {
        await forgotten;
        await marks.forgetGateway(call);
      },
      markCancelled: (client, id) => marks.markCancelled(client, id),
      checkGateways: (calls, ttl) => marks.checkGateways(calls, ttl),
    };
    const { clock, here, elsewhere } = replicas(slow);
    const run = here.start('U3');
    let answer = (): void => undefined;
    const answered = new Promise<string>((resolve) => (answer = () => resolve('answered')));
    const done = run.run(() => answered);
    await clock.scheduled();
    answer();
    expect(await elsewhere.mark(run.target.run)).toBe('marked');
    clock.fire();
    forget();
    expect(await done).toBe('answered');
    expect(run.cancelled).toBe(false);
  });

  it('answers a click Redis could not record as unrecorded, and logs it', async () => {
    const warned: string[] = [];
    const cancels = new RunCancels({
      marks: {
        rememberGateway: () => Promise.resolve(),
        adoptGateway: () => Promise.resolve(),
        forgetGateway: () => Promise.resolve(),
        checkGateways: () => Promise.resolve([]),
        markCancelled: () => Promise.reject(new Error('Redis unreachable')),
      },
      clock: new ManualClock(),
      logger: { warn: (_obj, msg) => void warned.push(msg) },
    });
    expect(await cancels.mark('some-run')).toBe('unrecorded');
    expect(warned).toEqual(['a Cancel click was not recorded']);
  });
});

describe('a run a survivor resumes after the replica running it died', () => {
  /** A run started on a replica that dies: its entry stays in Redis, unrenewed, until it lapses. */
  function leftByDeadReplica() {
    const dead = replicas();
    const run = dead.here.start('U7');
    void run.run(() => new Promise<never>(() => undefined));
    return { run, dead };
  }

  it('is stopped by a click on its button, the dead replica’s entry taken over rather than made ambiguous', async () => {
    const { run: left, dead } = leftByDeadReplica();
    await dead.clock.scheduled();
    const { clock, here, elsewhere } = replicas();
    const resumed = here.adopt(left.target.run, 'U7');
    expect(resumed.target).toEqual(left.target);
    const done = resumed.run(untilAborted(resumed.signal));
    await clock.scheduled();
    expect(await elsewhere.mark(left.target.run)).toBe('marked');
    clock.fire();
    expect(await done).toBe('stopped');
    expect(resumed.cancelled).toBe(true);
    expect(await elsewhere.mark(left.target.run)).toBe('none');
  });

  it('honours a click made while no replica ran it, at its first check', async () => {
    const { run: left, dead } = leftByDeadReplica();
    await dead.clock.scheduled();
    const { clock, here, elsewhere } = replicas();
    expect(await elsewhere.mark(left.target.run)).toBe('marked');
    const resumed = here.adopt(left.target.run, 'U7');
    const done = resumed.run(untilAborted(resumed.signal));
    await clock.scheduled();
    clock.fire();
    expect(await done).toBe('stopped');
    expect(resumed.signal.reason).toBe(RUN_CANCELLED_REASON);
  });
});
