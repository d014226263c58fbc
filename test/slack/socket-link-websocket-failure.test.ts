// When Socket Mode's WebSocket fails (Slack's socket host unreachable, a URL refused at the upgrade),
// @slack/socket-mode logs "WebSocket error occurred" and "WebSocket error!" at error level and its `start()`
// rejects with nothing at all. The link's warn line must still say why, from the client's 'error' event, and
// the library's lines for that attempt go to debug. A scripted client stands in for the library's (the
// stand-in's WebSocket never fails); time is a stepped clock.
import { EventEmitter } from 'node:events';
import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { AppTokenStatus } from '../../src/slack/app-token-status.js';
import { SocketModeLink, type SocketClient } from '../../src/slack/socket-link.js';
import { SocketOutageLog } from '../../src/slack/socket-outage-log.js';
import { steppedClock } from '../support/stepped-clock.js';
import { captureLogs } from './log-capture.js';

/** A logger keeping each line as [level, first argument]. */
function keptLines(): { lines: [string, unknown][]; log: (level: string) => (...args: unknown[]) => void } {
  const lines: [string, unknown][] = [];
  return {
    lines,
    log:
      (level) =>
      (...args) =>
        void lines.push([level, args[0]]),
  };
}

/** A SocketClient whose attempts go as `script` says, each logging as the library does through `logger`. */
class ScriptedClient extends EventEmitter implements SocketClient {
  logger: BoltLogger | undefined;
  constructor(private readonly script: ('websocket_fails' | 'hello')[]) {
    super();
  }
  start(): Promise<unknown> {
    // As SocketModeClient.start() does: settled by the next 'connected', or 'disconnected', which gives no reason.
    return new Promise((resolve, reject) => {
      this.once('connected', resolve);
      this.once('disconnected', reject);
      if (this.script.shift() === 'hello') return void this.emit('connected');
      const failure = Object.assign(new Error('Received network error or non-101 status code.'), {
        name: 'SMWebsocketError',
      });
      this.logger?.error(`WebSocket error occurred: ${failure.message}`);
      this.emit('error', failure);
      this.emit('disconnected');
    });
  }
  disconnect(): Promise<void> {
    return Promise.resolve();
  }
}

describe("Socket Mode's WebSocket failing at an attempt", () => {
  it("warns with the WebSocket's error, lowers the library's line, and says when it connected", async () => {
    const clock = steppedClock();
    const ours = captureLogs();
    const library = keptLines();
    const outage = new SocketOutageLog({ logger: ours.logger, clock });
    const client = new ScriptedClient(['websocket_fails', 'hello']);
    client.logger = outage.quiet({
      debug: library.log('debug'),
      info: library.log('info'),
      warn: library.log('warn'),
      error: library.log('error'),
      setLevel: () => undefined,
      getLevel: () => LogLevel.INFO,
      setName: () => undefined,
    });
    const link = new SocketModeLink(client, {
      status: new AppTokenStatus({ logger: ours.logger, clock }),
      outage,
      clock: { ...clock, random: () => 0.999_999 },
      passing: () => true,
      retryAfterMs: () => undefined,
    });

    const opened = link.open();
    await clock.turn();
    await clock.advance(1_000);
    await opened;

    expect(library.lines).toEqual([
      ['debug', 'WebSocket error occurred: Received network error or non-101 status code.'],
    ]);
    expect(ours.lines).toMatchObject([
      {
        level: 40,
        failure: 'SMWebsocketError: Received network error or non-101 status code.',
        failedAttempts: 1,
        attemptsSinceLastLine: 1,
        downForMs: 0,
        nextAttemptInMs: 1_000,
      },
      { level: 30, downForMs: 1_000, failedAttempts: 1 },
    ]);
  });
});
