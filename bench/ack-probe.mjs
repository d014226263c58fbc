// A probe for the bot's process under the open loop or the flood (BENCH_BOT_NODE_OPTIONS="--import
// file:///…/bench/ack-probe.mjs"): where a Slack request's time goes on the bot's side, to tell it from the
// generator's (goal 7b's client-side figure includes the generator's own connects and event loop). For each
// POST to /slack/events: when it was read (ms since the probe loaded), ms from its connection's accept to the
// request being read (null on a kept-alive connection), and ms from being read to its response finishing; and
// the event loop's delay (perf_hooks, 5 ms resolution). Written at exit to
// <tmpdir>/elicit-relay-ack-probe-<pid>.json. A bench tool: it wraps http.Server's emit, which the bot never
// should.
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import process from 'node:process';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const accepted = new WeakMap();
/** [read at ms, accept → read ms or null, read → response finished ms] */
const requests = [];
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function probedEmit(name, ...args) {
  if (name === 'connection') accepted.set(args[0], performance.now());
  if (name === 'request') {
    const [req, res] = args;
    if (req.method === 'POST' && req.url?.startsWith('/slack/events')) {
      const at = performance.now();
      const acceptedAt = accepted.get(req.socket);
      accepted.delete(req.socket);
      res.once('finish', () =>
        requests.push([at, acceptedAt === undefined ? null : at - acceptedAt, performance.now() - at]),
      );
    }
  }
  return emit.call(this, name, ...args);
};

/** p50 and p99 of the column's values (nulls left out), in ms; null when there are none. */
const quantiles = (column) => {
  const sorted = requests
    .map((r) => r[column])
    .filter((v) => v !== null)
    .sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;
  return { p50: at(0.5), p99: at(0.99) };
};

process.on('exit', () => {
  const ms = (ns) => ns / 1e6;
  const summary = {
    requests: requests.length,
    acceptToRead: quantiles(1),
    readToResponse: quantiles(2),
    eventLoopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
  };
  writeFileSync(
    join(tmpdir(), `elicit-relay-ack-probe-${process.pid}.json`),
    JSON.stringify({ summary, requests }),
  );
});
