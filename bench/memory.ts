// Memory of a burst (issue 15.13): the whole bot in-process floods N questions from one call (the fixture's
// `flood` tool, limits off) with a 5 s timeout, nobody answers. Heap and RSS are read idle, at the peak while
// the questions are pending (sampled every 100 ms), and once everything settled: every question ended, the
// outbox's waits for the cards still queued behind the channel's pace given up (deadline + 5 s), then a full GC.
// "Retained" = heap after the burst minus heap before it: what the burst leaves behind.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startBot, type Bot } from './bot.js';
import type { Row } from './stats.js';

/** The fixture's timeout; the outbox gives up on a queued card 5 s after it. */
const TIMEOUT_MS = 5_000;
/** Past the last deadline: the outbox's 5 s grace, plus time for the queued cards' jobs to settle. */
const SETTLE_MS = 12_000;
const MB = 2 ** 20;

/** A full GC: --expose-gc set at run time, taken from a fresh context. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** The process's heap and RSS right after a full GC. */
export function settled(): { heap: number; rss: number } {
  collectGarbage();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}

/** A V8 page (256 KB): a smaller drop between two full GCs is noise, not memory given back. */
const PAGE_BYTES = 256 * 1024;
/** Full GCs at most before `released` stops waiting for RSS to fall (measured: it is stable after 3). */
const MAX_GCS = 8;

/**
 * Heap and RSS once full GCs give nothing more back, and RSS after the first of them. Measured on Node 20
 * (bench/holder-rss.ts, 10,000 creates): one forced full GC frees the creates' garbage (heapUsed is back) but
 * leaves old space 61 MB committed for 39 MB used, the second GC gives those pages back to V8's pool
 * (heapTotal −17 MB) and only the third returns them to the OS (RSS −17 MB). RSS after one GC therefore
 * counts memory already free, which is not what a process keeps.
 */
export function released(): { heap: number; rss: number; rssAfterOneGc: number } {
  const first = settled();
  let last = { ...first, total: process.memoryUsage().heapTotal };
  for (let i = 1; i < MAX_GCS; i++) {
    const now = { ...settled(), total: process.memoryUsage().heapTotal };
    const gaveBack = last.rss - now.rss >= PAGE_BYTES || last.total - now.total >= PAGE_BYTES;
    last = now;
    if (!gaveBack && i >= 2) break;
  }
  return { heap: last.heap, rss: last.rss, rssAfterOneGc: first.rss };
}

/** Runs the flood tool and resolves once the tool's result is shared (as a file: it is long). */
async function flood(bot: Bot, count: number): Promise<void> {
  const { driver, standin } = bot;
  const earlier = new Set(standin.calls);
  await driver.slashCommand({
    userId: 'U0MEM',
    command: '/mcp',
    text: `run fixture flood {"count": ${count}}`,
  });
  await standin.waitForCall('files.completeUploadExternal', (c) => c.ok && !earlier.has(c), 120_000);
}

export async function memoryBench(url: string, prefix: string, counts: number[]): Promise<Row[]> {
  const bot = await startBot(url, prefix, { timeout: TIMEOUT_MS, maxPending: null, ratePerMinute: null });
  const rows: Row[] = [];
  try {
    for (const count of counts) {
      const before = settled();
      let peak = { heap: 0, rss: 0 };
      const sampler = setInterval(() => {
        const { heapUsed, rss } = process.memoryUsage();
        peak = { heap: Math.max(peak.heap, heapUsed), rss: Math.max(peak.rss, rss) };
      }, 100);
      await flood(bot, count);
      clearInterval(sampler);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const after = settled();
      const mb = (bytes: number) => Math.round(bytes / MB);
      const memoryRow = (name: string, bytes: number, note: string): Row => ({
        group: 'memory',
        name,
        n: count,
        p50: Math.round(bytes),
        p95: Number.NaN,
        p99: Number.NaN,
        max: Number.NaN,
        unit: 'bytes',
        note,
      });
      rows.push(
        memoryRow(
          `heap per pending question at the peak of a ${count} burst`,
          (peak.heap - before.heap) / count,
          `idle heap ${mb(before.heap)} MB, RSS ${mb(before.rss)} MB; peak heap ${mb(peak.heap)} MB, RSS ${mb(peak.rss)} MB`,
        ),
        memoryRow(
          `heap left after the ${count} burst ended (after a full GC)`,
          after.heap - before.heap,
          `heap ${mb(after.heap)} MB, RSS ${mb(after.rss)} MB once settled`,
        ),
      );
    }
  } finally {
    await bot.relay.stop();
    await bot.standin.close();
  }
  return rows;
}
