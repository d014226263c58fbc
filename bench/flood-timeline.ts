// Where a flood's card time goes (BENCH_FLOOD_TIMELINE=1): for each person's DM, from the commands being sent,
// when each question was created (its record's createdAt, Redis TIME), when its post was queued in the outbox
// and the slot it was planned for (the BullMQ job's timestamp and delay), when the worker took it up, and when
// the stand-in received it; with the DM's conversations.open and users.info. Printed on stderr as the median
// and worst person, so the time beyond the floor can be split into "first card late" and "pacing slack".
// "Taken" is the worker's last take-up of the job (BullMQ processedOn): a job the outbox delayed again (a
// Retry-After, or its check of the calls as made) shows its last run.
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { OUTBOX_QUEUE, keys } from '../src/redis/index.js';
import type { RecordedCall } from '../src/standin/index.js';

/** One card's moments, ms after the commands were sent. */
interface CardMoments {
  created: number;
  queued: number;
  planned: number;
  taken: number;
  /** The stand-in's receipt: the DM's posts matched to its jobs in the order the worker took them up. */
  posted: number;
}

/** One DM's lookups and cards. */
interface DmTimeline {
  channel: string;
  open: number;
  info: number;
  cards: CardMoments[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const max = (xs: number[]): number => Math.max(...xs);
const min = (xs: number[]): number => Math.min(...xs);

/** The timeline of each DM in `channels` (user id → DM channel), from `calls` and the bot's Redis keys. */
export async function floodTimeline(
  url: string,
  prefix: string,
  started: number,
  dms: Map<string, string>,
  calls: RecordedCall[],
): Promise<DmTimeline[]> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  const queue = new Queue(OUTBOX_QUEUE, { connection: redis, prefix: keys(prefix).bullPrefix });
  try {
    const jobs = (await queue.getJobs(['completed'])).filter((j) => j.id?.startsWith('card-'));
    const timelines: DmTimeline[] = [];
    for (const [user, channel] of dms) {
      const at = (c: RecordedCall | undefined) => (c ? c.at - started : NaN);
      const open = calls.find((c) => c.method === 'conversations.open' && c.args.users === user);
      const info = calls.find((c) => c.method === 'users.info' && c.args.user === user);
      const mine = jobs.filter((j) => (j.data as { channel?: string }).channel === channel);
      const cards = await Promise.all(mine.map((j) => cardMoments(redis, prefix, started, j)));
      const postTimes = calls
        .filter((c) => c.method === 'chat.postMessage' && c.ok && c.args.channel === channel)
        .map((c) => c.at - started)
        .sort((a, b) => a - b);
      // Posts in the order the worker took them up (a DM's calls go out one after another).
      cards.sort((a, b) => a.taken - b.taken);
      cards.forEach((c, i) => (c.posted = postTimes[i] ?? NaN));
      timelines.push({ channel, open: at(open), info: at(info), cards });
    }
    return timelines;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

async function cardMoments(redis: Redis, prefix: string, started: number, job: Job): Promise<CardMoments> {
  const id = String(job.id).slice('card-'.length);
  const createdAt = Number(await redis.hget(keys(prefix).question(id), 'createdAt'));
  return {
    created: createdAt - started,
    queued: job.timestamp - started,
    planned: job.timestamp + (job.opts.delay ?? 0) - started,
    taken: (job.processedOn ?? NaN) - started,
    posted: NaN,
  };
}

/** The timeline summarised per DM (median and worst DM of each moment), on stderr. */
export function printTimeline(timelines: DmTimeline[]): void {
  const per = (f: (t: DmTimeline) => number) => {
    const xs = timelines.map(f).filter((x) => !Number.isNaN(x));
    return `median ${median(xs).toFixed(0)} / worst ${max(xs).toFixed(0)}`;
  };
  const ofCards = (f: (c: CardMoments[]) => number) => (t: DmTimeline) => f(t.cards);
  const lines = [
    ['users.info', per((t) => t.info)],
    ['conversations.open', per((t) => t.open)],
    ['first question created', per(ofCards((c) => min(c.map((x) => x.created))))],
    ['last question created', per(ofCards((c) => max(c.map((x) => x.created))))],
    ['first card queued', per(ofCards((c) => min(c.map((x) => x.queued))))],
    ['first card planned', per(ofCards((c) => min(c.map((x) => x.planned))))],
    ['first card posted', per(ofCards((c) => min(c.map((x) => x.posted))))],
    ['last card planned', per(ofCards((c) => max(c.map((x) => x.planned))))],
    ['last card taken by worker', per(ofCards((c) => max(c.map((x) => x.taken))))],
    ['last card posted', per(ofCards((c) => max(c.map((x) => x.posted))))],
    ['planned span (last - first planned)', per(ofCards((c) => spanOf(c.map((x) => x.planned))))],
    ['worst post - planned per DM', per(ofCards((c) => max(c.map((x) => x.posted - x.planned))))],
  ];
  console.error(`… flood timeline, ms after the commands were sent (per DM: median / worst DM)`);
  for (const [what, value] of lines) console.error(`…   ${what}: ${value}`);
  const cards = timelines.flatMap((t) => t.cards);
  const spread = (xs: number[]) => {
    const sorted = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    const q = (p: number) => (sorted[Math.floor(p * (sorted.length - 1))] ?? NaN).toFixed(0);
    return `p50 ${q(0.5)} / p90 ${q(0.9)} / max ${q(1)}`;
  };
  console.error(`…   every card, taken - planned: ${spread(cards.map((c) => c.taken - c.planned))}`);
  console.error(`…   every card, posted - taken: ${spread(cards.map((c) => c.posted - c.taken))}`);
  console.error(`…   every card, queued - created: ${spread(cards.map((c) => c.queued - c.created))}`);
}

const spanOf = (xs: number[]): number => max(xs) - min(xs);
