// Socket Mode's ack latency. In HTTP mode our server times each request at /slack/events itself; over the
// socket there is no request to time, so the Bolt app times each envelope from its hand-over by the receiver
// (just after the socket message was parsed) to the listener's ack() call, which sends the ack frame.
import { performance } from 'node:perf_hooks';
import { App, type AppOptions, type ReceiverEvent } from '@slack/bolt';

/** A Bolt App that reports, per event, milliseconds from receipt to ack() (once, when the listener acks). */
export class AckTimingApp extends App {
  constructor(
    options: AppOptions,
    private readonly onAck: (ms: number) => void,
  ) {
    super(options);
  }

  override processEvent(event: ReceiverEvent): Promise<void> {
    const received = performance.now();
    const { ack } = event;
    return super.processEvent({
      ...event,
      // Reported before the frame is written, so whoever sees the ack can already see its sample.
      ack: (response) => {
        this.onAck(performance.now() - received);
        return ack(response);
      },
    });
  }
}
