// Socket Mode's log while Slack is away: @slack/socket-mode logged each failed attempt of the backoff at error
// level itself ("Failed to retrieve a new WSS URL", one set per attempt, 1 s doubling to 5 min apart) for as
// long as Slack was away. The link tells the story instead: the first failure a warn line with why and the next
// wait, then at most one line per 5 min with the count, and one info line once connected again saying how long
// it was down; the library's lines for the attempts go to debug. The Slack part runs in-process as the bot
// composes it, against the stand-in, its reconnects run one by one on a stepped clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import type { CapturedLogs } from './log-capture.js';
import { socketModeSetting, startThroughRetry } from './socket-mode-support.js';

const BOT_TOKEN = 'xoxb-socket-outage-lines';
const APP_TOKEN = 'xapp-1-socket-outage-lines';
/** Pino's level numbers. */
const WARN = 40;
const INFO = 30;

type Line = Record<string, unknown>;

/** The Socket Mode link's own lines (warn and info), and every line at warn or above from Bolt or its libraries. */
function linesSince(logs: CapturedLogs, from: number): { link: Line[]; library: Line[] } {
  const lines = logs.lines.slice(from);
  return {
    link: lines.filter((l) =>
      /^Socket Mode (cannot connect|still cannot connect|connected) to Slack/.test(String(l.msg)),
    ),
    library: lines.filter((l) => l.component === 'bolt' && Number(l.level) >= WARN),
  };
}

describe('Socket Mode while apps.connections.open fails for half an hour', { timeout: 60_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const { logs, clock } = setting;
  beforeAll(async () => {
    await setting.start();
  });

  const opens = (): number => setting.opens().length;

  /** Runs the reconnect timer set last, waiting out its delay; resolves once that attempt was answered and handled. */
  async function nextAttempt(): Promise<void> {
    await until('a reconnect is set', 10_000, () => Promise.resolve(clock.pending() > 0));
    const before = {
      opens: opens(),
      delays: clock.delays.length,
      hellos: setting.standin.socketMode.connections,
    };
    await clock.advance(clock.delays.at(-1) ?? 0);
    await until('the attempt is handled', 10_000, () =>
      Promise.resolve(
        opens() > before.opens &&
          (clock.delays.length > before.delays || setting.standin.socketMode.connections > before.hellos),
      ),
    );
  }

  it('warns at the first failure, then once per 5 min with the count, and says once how long it was down', async () => {
    const from = logs.lines.length;
    // 12 failures: attempts 1, 3, 7 … 255, 511 s after the drop, then 300 s apart (811 … 1411 s); the 13th connects.
    for (let i = 0; i < 12; i += 1) {
      setting.standin.failNext('apps.connections.open', 'service_unavailable', { status: 503 });
    }
    setting.standin.socketMode.disconnect('refresh_requested');
    for (let i = 0; i < 13; i += 1) await nextAttempt();
    await logs.waitFor((l) => /^Socket Mode connected/.test(String(l.msg)));

    const { link, library } = linesSince(logs, from);
    expect(library).toEqual([]);
    const failure = 'apps.connections.open: http_503';
    expect(
      link.map((l) => [l.level, l.failedAttempts, l.attemptsSinceLastLine, l.downForMs, l.nextAttemptInMs]),
    ).toEqual([
      [WARN, 1, 1, 1_000, 2_000],
      // 511 s: the first attempt 5 min or more after the first line; the 7 between them counted.
      [WARN, 9, 8, 511_000, 300_000],
      [WARN, 10, 1, 811_000, 300_000],
      [WARN, 11, 1, 1_111_000, 300_000],
      [WARN, 12, 1, 1_411_000, 300_000],
      [INFO, 12, undefined, 1_711_000, undefined],
    ]);
    expect(link.slice(0, 5).map((l) => l.failure)).toEqual(Array(5).fill(failure));
    expect(link[0]?.msg).toBe(
      `Socket Mode cannot connect to Slack (${failure}); next attempt in 2 s, logged again at most every 5 min while it cannot`,
    );
    expect(link[1]?.msg).toBe(
      `Socket Mode still cannot connect to Slack after 9 attempts (${failure}); next attempt in 300 s`,
    );
    expect(link[5]?.msg).toBe('Socket Mode connected to Slack again after 1711 s down (12 failed attempts)');
  });

  it('writes nothing for a routine reconnect, nor for a refused token (an error line of its own tells that)', async () => {
    const from = logs.lines.length;
    setting.standin.socketMode.disconnect('refresh_requested');
    await nextAttempt();
    expect(linesSince(logs, from)).toEqual({ link: [], library: [] });

    setting.standin.socketMode.refuseAppToken('token_revoked');
    setting.standin.socketMode.disconnect('link_disabled');
    await nextAttempt();
    await nextAttempt();
    setting.standin.socketMode.refuseAppToken(undefined);
    await nextAttempt();
    await logs.waitFor((l) => /Slack takes SLACK_APP_TOKEN again/.test(String(l.msg)));
    const { link, library } = linesSince(logs, from);
    expect([link, library]).toEqual([[], []]);
    const refusals = logs.lines.slice(from).filter((l) => l.key === 'SLACK_APP_TOKEN');
    expect(refusals.map((l) => l.refusal)).toEqual(['token_revoked', 'token_revoked']);
  });
});

describe('Socket Mode start-up while apps.connections.open fails', { timeout: 30_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const { logs } = setting;

  it('warns once with why, and says how long it took once connected', async () => {
    setting.standin.failNext('apps.connections.open', 'internal_error');
    await startThroughRetry(setting, 1_000);
    await logs.waitFor((l) => /^Socket Mode connected/.test(String(l.msg)));
    const { link, library } = linesSince(logs, 0);
    expect(library).toEqual([]);
    expect(link).toMatchObject([
      {
        level: WARN,
        failure: 'apps.connections.open: internal_error',
        failedAttempts: 1,
        nextAttemptInMs: 1_000,
      },
      { level: INFO, downForMs: 1_000, failedAttempts: 1 },
    ]);
  });
});
