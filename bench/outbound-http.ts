// The bot's CPU per outbound HTTP call (issue #19 goals 6b, 7a, 7b: a `/mcp run` makes three or four): a
// Web API-sized exchange (form-encoded POST, ~150-byte JSON answer) to a server in its own process, one call
// at a time, through src/http's httpFetch and through Node's own fetch, beside the floor of a bare node:http
// request whose body is read and parsed. Measured with process.cpuUsage(): the server's CPU is not counted.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { httpFetch } from '../src/http/index.js';
import type { Row } from './stats.js';

const GROUP = 'outbound http';
const BODY = 'channel=D0BENCH&text=Deploy%20to%20production%3F&token=xoxb-bench';

/** The answering server's source: a child process so its CPU is its own. */
const SERVER = `
const http = require('node:http');
const answer = JSON.stringify({ ok: true, channel: 'D0BENCH', ts: '1700000000.000100', message: { text: 'Deploy to production?', blocks: [] } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(answer));
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('disconnect', () => process.exit(0));
`;

/** CPU µs of this process per call over `n` sequential calls, after `n / 5` unmeasured ones. */
async function cpuPerCall(n: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < n / 5; i++) await call();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const { user, system } = process.cpuUsage(cpu);
  return (user + system) / n;
}

function bareRequest(url: string, agent: Agent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': BODY.length };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

function perCall(name: string, n: number, us: number, floorUs?: number): Row {
  const rounded = Math.round(us);
  return {
    group: GROUP,
    name,
    n,
    p50: rounded,
    p95: rounded,
    p99: rounded,
    max: rounded,
    ...(floorUs === undefined ? {} : { xFloor: us / floorUs }),
    note: 'CPU µs per call in the calling process, one at a time; the server runs in its own process',
  };
}

export async function outboundHttpBench(n: number): Promise<Row[]> {
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const [port] = (await once(server, 'message')) as [number];
    const url = `http://127.0.0.1:${port}/api/chat.postMessage`;
    const agent = new Agent({ keepAlive: true });
    const init = { method: 'POST', body: new URLSearchParams(BODY) };
    const floor = await cpuPerCall(n, () => bareRequest(url, agent));
    const ours = await cpuPerCall(n, async () => (await httpFetch(url, init)).json());
    const node = await cpuPerCall(n, async () => (await fetch(url, init)).json());
    agent.destroy();
    return [
      perCall('bare node:http request, body read and parsed = floor', n, floor),
      perCall("httpFetch (src/http): what the bot's Web API and MCP calls use", n, ours, floor),
      perCall("Node's fetch (undici), which they used before", n, node, floor),
    ];
  } finally {
    server.disconnect();
  }
}
