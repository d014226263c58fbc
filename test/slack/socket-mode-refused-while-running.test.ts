// Socket Mode when Slack refuses the app-level token after start-up (revoked, or the app disabled, while the bot
// runs), seen at the next reconnect (Slack's `disconnect`). The bot must not crash (@slack/socket-mode's own
// reconnect let invalid_auth's rejection reach nothing: exit 1 with a stack), must tell a load balancer
// (/readyz 503 naming SLACK_APP_TOKEN and the refusal; /healthz stays 200), must log the refusal once and
// again at most every 5 min rather than at each retry (the library logged each one at error level), and must
// be ready again, with an info line, once a reconnect succeeds. The Slack part runs in-process as the bot
// composes it (createSlack), against the stand-in, with its reconnects timed by a stepped clock.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppTokenRefusal } from '../../src/standin/index.js';
import { until } from '../support/until.js';
import { socketModeSetting, type SocketModeSetting } from './socket-mode-support.js';

const BOT_TOKEN = 'xoxb-socket-refused';
const APP_TOKEN = 'xapp-1-socket-refused';
/** The reconnect backoff's ceiling for the n-th retry after a drop (1 s doubling), in ms. */
const ceiling = (n: number): number => 1000 * 2 ** n;
/** Pino's level numbers. */
const ERROR = 50;
const INFO = 30;

/** Runs the setting's timer (due within `ms`) once one is set, until apps.connections.open was asked once more. */
async function retry({ clock, opens }: SocketModeSetting, ms: number): Promise<void> {
  const opened = (): number => opens().length;
  const before = opened();
  await until('apps.connections.open is asked again', 15_000, async () => {
    if (opened() > before) return true;
    if (clock.pending() > 0) await clock.advance(ms);
    return opened() > before;
  });
}

describe('Socket Mode, the app-level token refused while the bot runs', { timeout: 30_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const { logs, clock } = setting;
  beforeAll(async () => {
    await setting.start();
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`http://127.0.0.1:${setting.bot.port}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const retryWithin = (ms: number): Promise<void> => retry(setting, ms);
  /** Slack refuses the token, then asks the bot to reconnect; resolves once the first reconnect was refused. */
  const refuseAndDisconnect = async (refusal: AppTokenRefusal): Promise<void> => {
    setting.standin.socketMode.refuseAppToken(refusal);
    setting.standin.socketMode.disconnect('link_disabled');
    await retryWithin(ceiling(0));
  };
  /** Slack takes the token again; resolves once a reconnect said hello and the bot logged it. */
  const takeBackAndReconnect = async (n: number): Promise<void> => {
    setting.standin.socketMode.refuseAppToken(undefined);
    const from = logs.lines.length;
    await retryWithin(ceiling(n));
    const reconnected = (): Record<string, unknown>[] =>
      logs.lines
        .slice(from)
        .filter((l) => l.level === INFO && /Slack takes SLACK_APP_TOKEN again/.test(String(l.msg)));
    await until('the bot logs that it reconnected', 10_000, () => Promise.resolve(reconnected().length > 0));
    expect(reconnected()).toHaveLength(1);
  };
  const errorsSince = (from: number): Record<string, unknown>[] =>
    logs.lines.slice(from).filter((l) => Number(l.level) >= ERROR);

  it('invalid_auth: no crash, /readyz 503 naming the refusal, ready again once Slack takes the token', async () => {
    expect((await get('/readyz')).status).toBe(200);
    await refuseAndDisconnect('invalid_auth');
    await until('/readyz answers 503', 10_000, async () => (await get('/readyz')).status === 503);
    const ready = await get('/readyz');
    expect(ready.body).toMatchObject({
      ok: false,
      serving: true,
      redis: 'ok',
      socketMode: { state: 'refused', refusal: 'invalid_auth' },
    });
    expect(JSON.stringify(ready.body)).toContain(
      'SLACK_APP_TOKEN: Slack refused it (apps.connections.open: invalid_auth)',
    );
    expect(await get('/healthz')).toEqual({ status: 200, body: { ok: true } });
    // Still refused at the next retry: still unready, still trying.
    await retryWithin(ceiling(1));
    expect((await get('/readyz')).status).toBe(503);

    await takeBackAndReconnect(2);
    const again = await get('/readyz');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ok: true, socketMode: { state: 'connected' } });
  });

  it('token_revoked: /readyz 503 and one error line naming the fix, not one per retry; again after 5 min', async () => {
    const from = logs.lines.length;
    await refuseAndDisconnect('token_revoked');
    await until('/readyz answers 503', 10_000, async () => (await get('/readyz')).status === 503);
    expect((await get('/readyz')).body).toMatchObject({
      socketMode: { state: 'refused', refusal: 'token_revoked' },
    });
    await retryWithin(ceiling(1));
    await retryWithin(ceiling(2));
    await retryWithin(ceiling(3));
    const errors = errorsSince(from);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ key: 'SLACK_APP_TOKEN', refusal: 'token_revoked' });
    expect(String(errors[0]?.msg)).toContain(
      'SLACK_APP_TOKEN: Slack refused it (apps.connections.open: token_revoked). Generate a new app-level token',
    );

    // 5 min later, still refused: said once more (the retry due 16 s on runs 5 min on), then quiet again.
    await retryWithin(300_000);
    await retryWithin(ceiling(5));
    expect(errorsSince(from)).toHaveLength(2);
    await takeBackAndReconnect(6);
    expect((await get('/readyz')).status).toBe(200);
  });

  it('keeps asking while refused, 1 s doubling to at most 5 min apart', async () => {
    const from = clock.delays.length;
    await refuseAndDisconnect('missing_scope');
    for (let n = 1; n <= 10; n++) await retryWithin(300_000);
    // The wait before each of the 11 attempts since the drop (the 12th's may still be being set).
    expect(clock.delays.slice(from, from + 11)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000,
    ]);
    expect((await get('/readyz')).body).toMatchObject({
      socketMode: { state: 'refused', refusal: 'missing_scope' },
    });
    await takeBackAndReconnect(11);
    expect((await get('/readyz')).status).toBe(200);
  });
});

describe('Socket Mode start-up after a passing failure', { timeout: 30_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });

  // @slack/socket-mode retried it itself before; its own reconnection is off now (socket-link.ts).
  it('tries apps.connections.open again after internal_error, and starts', async () => {
    setting.standin.failNext('apps.connections.open', 'internal_error');
    const started = setting.start();
    await setting.standin.waitForCall('apps.connections.open', (c) => c.error === 'internal_error');
    await retry(setting, ceiling(0));
    await started;
    expect(setting.opens()).toEqual([false, true]);
    expect(setting.standin.socketMode.connections).toBe(1);
  });
});
