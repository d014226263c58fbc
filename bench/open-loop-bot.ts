// The bot under the open-loop load (bench/open-loop.ts) as its own process: src/cli.ts through tsx, one replica,
// with the elicit fixture over Streamable HTTP in a third process. The generator keeps the Slack stand-in (it is
// Slack's side) and the questions' holder store in its own process, so the bot's event loop carries only the bot.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localeOf } from '../blocks/index.js';
import type { Question } from '../src/relay/types.js';
import { formPage } from '../src/slack/answer-replies.js';
import {
  SlackDriver,
  VERIFICATION_TOKEN,
  buildStateValues,
  startSlackStandin,
  type SlackStandin,
} from '../src/standin/index.js';
import type { QuestionStore } from '../src/store/index.js';
import { freePort, runCli, waitUntilReady, type CliRun } from '../test/system/child.js';
import { startHttpFixture, type HttpFixture } from './fixture-http.js';

const BOT_TOKEN = 'xoxb-bench-open-loop';
const SIGNING_SECRET = 'bench-open-loop-secret';
/** The questions' timeout, in ms: none may end before it is submitted. */
const QUESTION_TIMEOUT_MS = 30 * 60_000;
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};
/** Questions created at once while preparing. */
const CREATE_CONCURRENCY = 20;

export interface ChildBot {
  standin: SlackStandin;
  driver: SlackDriver;
  /** CPU time the bot's process has used so far (user + system), in ms; undefined where /proc is not there. */
  cpuMs: () => number | undefined;
  close: () => Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (Linux's USER_HZ, 100 on every usual build). */
const CLOCK_TICKS_PER_S = 100;

/** User + system CPU of process `pid` in ms, from /proc (Linux); undefined elsewhere or once it has exited. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** `rateLimits`: the stand-in enforces Slack's documented limits (blocks/slack-rate-limits.ts), as in the flood. */
export async function startChildBot(url: string, prefix: string, rateLimits = false): Promise<ChildBot> {
  const standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits });
  const fixture = await startHttpFixture();
  let run: CliRun | undefined;
  try {
    const port = await freePort();
    run = await startCli({ url, prefix, port, fixture, apiUrl: standin.apiUrl });
    const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
    const driver = new SlackDriver({ eventsUrl, signingSecret: SIGNING_SECRET, standin });
    const child = run;
    return {
      standin,
      driver,
      cpuMs: () => processCpuMs(child.child.pid),
      close: async () => {
        await stopChild(child);
        await fixture.close();
        await standin.close();
      },
    };
  } catch (err) {
    if (run) await stopChild(run);
    await fixture.close();
    await standin.close();
    throw err;
  }
}

async function startCli(o: {
  url: string;
  prefix: string;
  port: number;
  fixture: HttpFixture;
  apiUrl: string;
}): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-open-loop-'));
  const config = join(dir, 'config.json');
  const elicitation = { timeout: QUESTION_TIMEOUT_MS, maxPending: null, ratePerMinute: null };
  writeFileSync(config, JSON.stringify({ mcpServers: { fixture: { url: o.fixture.url, elicitation } } }));
  const run = runCli({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: o.apiUrl,
    REDIS_URL: o.url,
    REDIS_PREFIX: o.prefix,
    PORT: String(o.port),
    ELICIT_RELAY_CONFIG: config,
    // A probe loaded into the bot (e.g. `--import file:///…/probe.mjs` writing a CPU profile at exit).
    ...(process.env.BENCH_BOT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_BOT_NODE_OPTIONS } : {}),
  });
  try {
    await waitUntilReady(run);
    return run;
  } finally {
    // The bot has read its config at start-up; nothing else uses the folder.
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stopChild(run: CliRun): Promise<void> {
  if (run.child.exitCode !== null || run.child.signalCode !== null) {
    // The bot died under the load: what it said last is the run's explanation.
    const { code, stderr } = await run.done;
    const said = `${stderr}${run.stdout()}`.trim().split('\n').slice(-5).join('\n');
    console.error(`… the bot had exited (code ${String(code)}); its last lines:\n${said}`);
    return;
  }
  run.child.kill('SIGTERM');
  await run.done;
}

/** A pending question and the view_submission payload that answers it with `answer`. */
export interface Submission {
  question: Question;
  answer: string;
  payload: Record<string, unknown>;
}

/**
 * `count` questions, one person each, written straight into the store as an elicitation's are (no card: the
 * card's pacing is goal 7's), held by `holder` so their outcomes come to the generator's inbox (as they come
 * to the replica running the MCP call); and each one's modal
 * as the bot opens it (formPage), submitted with a distinct answer.
 */
export async function prepareSubmissions(
  holder: QuestionStore,
  standin: SlackStandin,
  count: number,
): Promise<Submission[]> {
  const all: Submission[] = [];
  for (let first = 0; first < count; first += CREATE_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CREATE_CONCURRENCY, count - first) }, (_, k) => first + k);
    all.push(...(await Promise.all(batch.map((i) => prepareOne(holder, standin, i)))));
  }
  return all;
}

async function prepareOne(holder: QuestionStore, standin: SlackStandin, i: number): Promise<Submission> {
  const user = `U0OL${i}`;
  const question = await holder.create({
    server: 'fixture',
    userId: user,
    origin: { userId: user },
    message: 'Name?',
    requestedSchema: SCHEMA,
    timeoutMs: QUESTION_TIMEOUT_MS,
    place: { dm: user },
  });
  const modal = formPage(question, { page: 0, answers: {}, reviewing: false }, localeOf(undefined));
  const view = { ...modal, id: `V0OL${i}`, type: 'modal' } as Record<string, unknown>;
  const input = (modal.blocks as { type: string; block_id?: string }[]).find((b) => b.type === 'input');
  const answer = `answer ${i}`;
  const values = buildStateValues(view, { [input?.block_id ?? '']: answer });
  const id = standin.identity;
  const payload = {
    type: 'view_submission',
    team: { id: id.teamId, domain: id.teamDomain },
    user: { id: user, username: user, name: user, team_id: id.teamId },
    api_app_id: id.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: standin.issueTriggerId(user),
    view: { ...view, state: { values } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
  return { question, answer, payload };
}
