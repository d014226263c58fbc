// The Socket Mode tests' setting: the Slack part in Socket Mode as the bot composes it, against the stand-in, its
// connects and reconnects timed by a stepped clock that keeps each delay it was given, with the jitter fixed at
// its top so each retry waits its backoff's ceiling. One setting a describe: its hooks start the stand-in before
// the describe's tests and close the bot (when one started) and the stand-in after them.
import { afterAll, beforeAll } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { steppedClock, type SteppedClock } from '../support/stepped-clock.js';
import { until } from '../support/until.js';
import { captureLogs, printLogsOnFailure, type CapturedLogs } from './log-capture.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

/** A stepped clock that also keeps each delay it was given (ms, in order). */
export interface DelaysClock extends SteppedClock {
  delays: number[];
}

export type SocketBot = Pick<RunningSlackPart, 'slack' | 'port' | 'close'>;

export interface SocketModeSetting {
  /** The Slack part's log, printed for a test that fails. */
  logs: CapturedLogs;
  clock: DelaysClock;
  /** The stand-in, started before the describe's tests. */
  readonly standin: SlackStandin;
  /** The bot `start` started. */
  readonly bot: SocketBot;
  /** Starts the bot (resolves once connected); it is closed after the describe's tests. */
  start: () => Promise<SocketBot>;
  /** Each apps.connections.open the stand-in answered so far: whether it succeeded, in order. */
  opens: () => boolean[];
}

export function delaysClock(): DelaysClock {
  const clock = steppedClock();
  const delays: number[] = [];
  return {
    ...clock,
    delays,
    schedule: (fn, ms) => {
      delays.push(ms);
      return clock.schedule(fn, ms);
    },
  };
}

/** The setting of one describe, for the Slack app whose tokens are `botToken` and `appToken`. */
export function socketModeSetting(tokens: { botToken: string; appToken: string }): SocketModeSetting {
  const logs = captureLogs();
  printLogsOnFailure(logs);
  const clock = delaysClock();
  let standin: SlackStandin | undefined;
  let bot: SocketBot | undefined;
  const started = (): SlackStandin => {
    if (standin === undefined) throw new Error('the stand-in starts in beforeAll');
    return standin;
  };
  beforeAll(async () => {
    standin = await startSlackStandin(tokens);
  });
  afterAll(async () => {
    await bot?.close();
    await standin?.close();
  });
  const start = async (): Promise<SocketBot> => {
    bot = await startSlackPart({
      standin: started(),
      ...tokens,
      tools: {} as never,
      logs,
      clock: { ...clock, random: () => 0.999_999 },
    });
    return bot;
  };
  return {
    logs,
    clock,
    get standin() {
      return started();
    },
    get bot() {
      if (bot === undefined) throw new Error('the bot was not started');
      return bot;
    },
    start,
    opens: () =>
      started()
        .calls.filter((c) => c.method === 'apps.connections.open')
        .map((c) => c.ok),
  };
}

/**
 * Starts `setting`'s bot while its first apps.connections.open fails (the test made it fail): once the retry is
 * set, moves the clock on by `ms`; resolves once the bot started.
 */
export async function startThroughRetry(setting: SocketModeSetting, ms: number): Promise<SocketBot> {
  const started = setting.start();
  await until('a retry is set', 20_000, () => Promise.resolve(setting.clock.pending() > 0));
  await setting.clock.advance(ms);
  return started;
}
