// The one-line status on stderr while the client waits: redrawn in place with a spinner and the time waited on
// a terminal, written once as a plain line otherwise (CI logs keep every byte written).

export interface StatusOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Spinner frames, one per redraw. */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Redraw interval on a terminal, in ms. */
const REDRAW_MS = 100;

export interface StatusLine {
  /** Says `text` from now on (the bot gone, the bot back): redrawn on a terminal, one more plain line otherwise. */
  show(text: string): void;
  stop(): void;
}

export function showStatus(out: StatusOutput, text: string, now: () => number = Date.now): StatusLine {
  let shown = text;
  if (!out.isTTY) {
    out.write(`elicit-relay: ${text}\n`);
    return {
      show: (next) => {
        if (next !== shown) out.write(`elicit-relay: ${next}\n`);
        shown = next;
      },
      stop: () => undefined,
    };
  }
  const started = now();
  let frame = 0;
  const draw = (): void => {
    const seconds = Math.floor((now() - started) / 1000);
    const waited = seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
    out.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length] ?? ''} ${shown} (${waited})`);
  };
  draw();
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  return {
    show: (next) => {
      shown = next;
      draw();
    },
    stop: () => {
      clearInterval(timer);
      out.write('\r\x1b[K');
    },
  };
}
