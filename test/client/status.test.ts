// The client's one-line status on stderr while it waits (#16 item 7): animated in place only on a terminal,
// one plain line otherwise, so CI logs get one line per wait. The clock is injected.
import { describe, expect, it } from 'vitest';
import { showStatus } from '../../src/client/status.js';
import { deferred } from '../support/deferred.js';

describe('the waiting status line', () => {
  it('is one plain line when stderr is not a terminal, and stopping it writes nothing more', () => {
    const written: string[] = [];
    const status = showStatus({ write: (text: string) => written.push(text), isTTY: false }, 'waiting');
    status.stop();
    expect(written).toEqual(['elicit-relay: waiting\n']);
  });

  it('writes one more plain line when what it says changes, and none when it says the same again', () => {
    const written: string[] = [];
    const status = showStatus({ write: (text: string) => written.push(text), isTTY: false }, 'waiting');
    status.show('waiting for the bot to come back');
    status.show('waiting for the bot to come back');
    status.show('the bot answers again; waiting');
    status.stop();
    expect(written).toEqual([
      'elicit-relay: waiting\n',
      'elicit-relay: waiting for the bot to come back\n',
      'elicit-relay: the bot answers again; waiting\n',
    ]);
  });

  it('is redrawn at once with what it says now on a terminal', () => {
    const written: string[] = [];
    const status = showStatus(
      { write: (text: string) => written.push(text), isTTY: true },
      'waiting',
      () => 0,
    );
    status.show('waiting for the bot to come back');
    status.stop();
    expect(written).toEqual([
      '\r\x1b[K⠋ waiting (0s)',
      '\r\x1b[K⠙ waiting for the bot to come back (0s)',
      '\r\x1b[K',
    ]);
  });

  it('is redrawn in place with a spinner and the time waited on a terminal, and erased when it stops', async () => {
    const written: string[] = [];
    const { promise: secondFrame, resolve: redrawn } = deferred();
    const out = {
      isTTY: true,
      write: (text: string) => {
        written.push(text);
        if (written.length === 2) redrawn();
      },
    };
    // Started at 0; the next reads are 61 s later.
    const times = [0, 0];
    const status = showStatus(out, 'waiting', () => times.shift() ?? 61_000);
    await secondFrame;
    status.stop();
    expect(written).toEqual(['\r\x1b[K⠋ waiting (0s)', '\r\x1b[K⠙ waiting (1m 1s)', '\r\x1b[K']);
  });
});
