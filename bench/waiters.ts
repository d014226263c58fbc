// Child process of bench/long-poll.ts: holds one `GET /api/v1/questions/{id}?wait=60` per id, each on its own
// socket, so the bot's process carries only the server side of the waiters. Reads `{base, token, ids}` as
// one JSON line on stdin (an id may repeat: several waiters on one question); prints `sent` once every request
// is on the wire, then `done <id> <ms> <http status> <question status>` as each answer completes
// (ms = performance.timeOrigin + performance.now(), comparable across processes).
import { request } from 'node:http';
import { createInterface } from 'node:readline';

interface Job {
  base: string;
  token: string;
  ids: string[];
}

const now = (): number => performance.timeOrigin + performance.now();

function hold(job: Job, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${job.base}/api/v1/questions/${id}?wait=60`, {
      agent: false,
      headers: { authorization: `Bearer ${job.token}` },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        const at = now();
        const { status } = JSON.parse(body) as { status?: string };
        process.stdout.write(`done ${id} ${at} ${res.statusCode ?? 0} ${status ?? '-'}\n`);
      });
    });
    req.on('error', reject);
    // Resolved once the request is written to a connected socket.
    req.end(() => resolve());
  });
}

const lines = createInterface({ input: process.stdin });
lines.once('line', (line) => {
  const job = JSON.parse(line) as Job;
  Promise.all(job.ids.map((id) => hold(job, id))).then(
    () => process.stdout.write('sent\n'),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
});
