// The Automations API through the whole bot in-process (real HTTP, real Redis, the Slack stand-in), each
// beside a floor sampled right before every measured operation:
// - POST /api/v1/questions → card posted (chat.postMessage seen by the stand-in); floor: a bare loopback
//   POST to the stand-in's chat.postMessage.
// - a question's end (seen on the ended stream, bench/end-watch.ts) → its webhook received; floor: a bare
//   POST to the receiver.
// - 1,000 long-poll waiters on this replica (bench/long-poll.ts).
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { DEFAULT_API_CLIENT } from '../src/config/index.js';
import { isCard, startBot, type Bot } from './bot.js';
import { type Api, apiOf, ask, withdraw } from './api-client.js';
import { EndWatch, wallMs } from './end-watch.js';
import { longPollBench } from './long-poll.js';
import { row, summarize, timePaired, type Row } from './stats.js';

const TOKEN = 'bench-api-token';
const WEBHOOK_SECRET = 'bench-webhook-secret';
/** Longest wait for one card or webhook, in ms. */
const WAIT_MS = 15_000;
const WARMUP = 5;
/**
 * Spacing of the create → card samples, ms: each card is two outbox calls (conversations.open for a new
 * person, chat.postMessage) and the outbox makes at most 10 calls/s, so closer samples would time its queue.
 */
const CARD_SPACING_MS = 250;

const isCardFor =
  (channel: string) =>
  (c: { ok: boolean; args: Record<string, unknown> }): boolean =>
    c.ok && c.args.channel === channel && isCard(c);

/** A receiver that resolves a waiter per question id when its webhook arrives. */
interface Receiver {
  url: string;
  /** Resolves with the time (wallMs) the webhook of question `id` arrived. */
  got(id: string): Promise<number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const waiting = new Map<string, (at: number) => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = wallMs();
      res.end('ok');
      const body = Buffer.concat(chunks).toString('utf8');
      const id = body === '' ? undefined : (JSON.parse(body) as { id?: string }).id;
      if (id !== undefined) waiting.get(id)?.(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got: (id) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no webhook for ${id} in ${WAIT_MS} ms`)), WAIT_MS);
        waiting.set(id, (at) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(at);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function createToCard(bot: Bot, api: Api, n: number): Promise<Row[]> {
  const bare = async (): Promise<void> => {
    const res = await fetch(`${bot.standin.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer xoxb-bench-token',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ channel: bot.standin.dmChannelOf('U0FLOOR'), text: 'floor' }).toString(),
    });
    await res.text();
  };
  const create = async (i: number): Promise<void> => {
    const user = `U0API${i}`;
    await ask(api, user);
    await bot.standin.waitForCall('chat.postMessage', isCardFor(bot.standin.dmChannelOf(user)), WAIT_MS);
  };
  const t = await timePaired(n, WARMUP, bare, create, () => sleep(CARD_SPACING_MS));
  const floor = summarize(t.floorSamples);
  return [
    row('api', 'bare loopback POST to the stand-in chat.postMessage = floor', floor),
    row('api', 'POST /api/v1/questions → card posted (chat.postMessage seen)', summarize(t.samples), {
      floorP50: floor.p50,
    }),
  ];
}

async function webhookDelivery(
  bot: Bot,
  api: Api,
  receiver: Receiver,
  watch: EndWatch,
  n: number,
): Promise<Row[]> {
  const bare = () => fetch(receiver.url, { method: 'POST', body: '' }).then((r) => r.text());
  const ids: string[] = [];
  // Questions (and their cards) made before the clock runs, so only the end and the delivery are timed.
  for (let i = 0; i < n + WARMUP; i++) {
    const user = `U0HOOK${i}`;
    ids.push(await ask(api, user, receiver.url));
    await bot.standin.waitForCall('chat.postMessage', isCardFor(bot.standin.dmChannelOf(user)), WAIT_MS);
  }
  const samples: number[] = [];
  const floor: number[] = [];
  for (const [i, id] of ids.entries()) {
    const t0 = wallMs();
    await bare();
    const floorUs = (wallMs() - t0) * 1000;
    const got = receiver.got(id);
    await withdraw(api, id);
    const [endedAt, gotAt] = await Promise.all([watch.ended(id), got]);
    if (i < WARMUP) continue;
    floor.push(floorUs);
    samples.push((gotAt - endedAt) * 1000);
  }
  const floorSummary = summarize(floor);
  return [
    row('webhooks', 'bare loopback POST to the receiver = floor', floorSummary),
    row('webhooks', 'end (ended stream entry) → signed webhook received', summarize(samples), {
      floorP50: floorSummary.p50,
      note: 'ended-stream consumer → BullMQ job → worker → resolved, pinned POST',
    }),
  ];
}

export async function automationsBench(
  url: string,
  prefix: string,
  n: number,
  waiters: number,
): Promise<Row[]> {
  const receiver = await startReceiver();
  const env = {
    ELICIT_RELAY_API_TOKEN: TOKEN,
    ELICIT_RELAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ELICIT_RELAY_WEBHOOK_HOSTS: new URL(receiver.url).host,
    // The long-poll run's questions have no card on purpose: the sweep must not post them while it runs.
    ELICIT_RELAY_REDELIVER_AFTER: '1h',
  };
  const bot = await startBot(url, prefix, {}, env);
  const api = apiOf(bot.relay.port, TOKEN);
  const watch = await EndWatch.open(url, prefix);
  try {
    return [
      ...(n > 0 ? await createToCard(bot, api, n) : []),
      ...(n > 0 ? await webhookDelivery(bot, api, receiver, watch, n) : []),
      ...(waiters > 0
        ? await longPollBench({
            url,
            prefix,
            api,
            count: waiters,
            token: TOKEN,
            client: DEFAULT_API_CLIENT,
            watch,
          })
        : []),
    ];
  } finally {
    watch.close();
    await bot.relay.stop();
    await bot.standin.close();
    await receiver.close();
  }
}
