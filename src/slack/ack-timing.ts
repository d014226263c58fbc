// Every listener's ack() passes through here. Two jobs:
// - A late ack must not throw. Over HTTP, Bolt answers a request nobody acked within 3001 ms with a 404 from
//   its own timer; an ack() after that writes headers a second time and throws ERR_HTTP_HEADERS_SENT. Where the
//   ack is a reply sent from a timer (the answering service's "not recorded" after 1.5 s, whose timer a starved
//   event loop runs after Bolt's), that rejection had no one to catch it and killed the process (the open-loop
//   bench's bot went silent after 16 answers). Slack already shows the person its own error, so the late ack is
//   logged and resolves, and the listener carries on with its work (or has already refused it honestly).
// - Socket Mode's ack latency. In HTTP mode our server times each request at /slack/events itself; over the
//   socket there is no request to time, so the app times each envelope from its hand-over by the receiver
//   (just after the socket message was parsed) to the listener's ack() call, which sends the ack frame.
import { performance } from 'node:perf_hooks';
import { App, type AppOptions, type ReceiverEvent } from '@slack/bolt';

export interface AckHooks {
  /** Milliseconds from receipt to ack(), per event (Socket Mode's ack latency); absent: not timed. */
  onAck?: (ms: number) => void;
  /** An ack() that came after Slack had been answered without it; `ms` from receipt, `type` the payload's. */
  onLateAck: (late: { ms: number; type: string }) => void;
}

/** Node's code for writing a response whose headers went out already (here: Bolt's 404 at 3 s). */
const HEADERS_SENT = 'ERR_HTTP_HEADERS_SENT';

function isHeadersSent(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === HEADERS_SENT;
}

/** The payload's type (view_submission, block_actions…), or 'command' for a slash command. */
function payloadType(body: ReceiverEvent['body']): string {
  const type: unknown = body.type ?? (body.command === undefined ? undefined : 'command');
  return typeof type === 'string' ? type : 'unknown';
}

/** A Bolt App whose listeners' acks report their latency and never throw for coming too late. */
export class AckTimingApp extends App {
  constructor(
    options: AppOptions,
    private readonly hooks: AckHooks,
  ) {
    super(options);
  }

  override processEvent(event: ReceiverEvent): Promise<void> {
    const received = performance.now();
    const { ack } = event;
    return super.processEvent({
      ...event,
      // Reported before the frame is written, so whoever sees the ack can already see its sample.
      ack: async (response) => {
        this.hooks.onAck?.(performance.now() - received);
        try {
          await ack(response);
        } catch (error) {
          if (!isHeadersSent(error)) throw error;
          this.hooks.onLateAck({ ms: performance.now() - received, type: payloadType(event.body) });
        }
      },
    });
  }
}
