// Timing requests sent all at once, and the floor of the flood's command acks (issue #19 goal 7b): the same
// client (the stand-in's driver) sending the same signed slash-command requests at once to a bare node:http
// server that answers 200 as soon as it has read each body. The bench process is Slack here and shares the
// machine's cores with the bot, so what the floor takes is the measuring side's own cost; what the bot's acks
// take beyond it is the bot's.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransport, type Delivery, type Outgoing } from '../src/standin/index.js';
import { nowUs } from './stats.js';

/** Answer times in ms; `failed` counts answers other than 200 (Bolt answers 404 when no ack came within 3 s). */
export interface Timed {
  ms: number[];
  failed: number;
}

/** Milliseconds from each of `sends` being started to its HTTP answer, and how many were not answered 200. */
export async function timedAll(sends: (() => Promise<{ status: number }>)[]): Promise<Timed> {
  const answers = await Promise.all(
    sends.map(async (send) => {
      const t0 = nowUs();
      const delivery = await send();
      return { ms: (nowUs() - t0) / 1000, ok: delivery.status === 200 };
    }),
  );
  return { ms: answers.map((a) => a.ms), failed: answers.filter((a) => !a.ok).length };
}

/** `requests` sent at once, signed, to a server that only reads each and answers 200: their answer times. */
export async function bareAckFloor(requests: Outgoing[]): Promise<Timed> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const transport = new HttpTransport({
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: 'bench-floor-secret',
    clock: Date.now,
  });
  try {
    return await timedAll(requests.map((request) => (): Promise<Delivery> => transport.deliver(request)));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
