// A person's first `/mcp run` with a distant Slack: the stand-in answers every Web API call and response_url
// post SLACK_MS late, as Slack is 50–150 ms away from most hosts. The bot opens the person's MCP session (over
// stdio: a fixture process each) and looks up their DM while the run is claimed and its "Running…" note goes
// out (ToolResults.warm), so a first run should wait for the longer of the two, not both. Floor: the same
// people's next run, on the session now open, in the same run. The same again with Slack next door (0 ms)
// shows what the session start costs a first run when nothing hides it.
import { startBot, type Bot } from './bot.js';
import { nowUs, row, summarize, type Row } from './stats.js';

const GROUP = 'first run';
/** How far away Slack is: each call's answer comes this many ms after the call, in ms. */
const SLACK_MS = 100;
/** Longest wait for one run's result, in ms. */
const WAIT_MS = 15_000;

/** `/mcp run fixture echo` as `userId`: ms from the command to its result posted. */
async function runToResult(bot: Bot, userId: string, marker: string): Promise<number> {
  const { standin, driver } = bot;
  const channel = standin.dmChannelOf(userId);
  const t0 = nowUs();
  const text = `run fixture echo ${JSON.stringify({ text: marker })}`;
  const ack = await driver.slashCommand({ userId, command: '/mcp', text });
  if (ack.status !== 200) throw new Error(`the command got HTTP ${ack.status}`);
  await standin.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === channel && JSON.stringify(c.args.blocks ?? '').includes(marker),
    WAIT_MS,
  );
  return (nowUs() - t0) / 1000;
}

/** Each person's first run (a session start each), then each one's run on the session it opened. */
async function firstThenOpen(bot: Bot, people: string[]): Promise<[number[], number[]]> {
  const first: number[] = [];
  const open: number[] = [];
  for (const user of people) first.push(await runToResult(bot, user, `${user}-first`));
  for (const user of people) open.push(await runToResult(bot, user, `${user}-open`));
  return [first, open];
}

/** `people` first and open-session runs with Slack `slackMs` away (after two of each not counted). */
async function measured(url: string, prefix: string, people: number, slackMs: number) {
  const bot = await startBot(url, prefix, {}, {}, { slackLatencyMs: slackMs });
  try {
    await firstThenOpen(bot, ['U0FIRSTWARM1', 'U0FIRSTWARM2']);
    const users = Array.from({ length: people }, (_, i) => `U0FIRST${i}`);
    const [first, open] = await firstThenOpen(bot, users);
    return { first: summarize(first), open: summarize(open) };
  } finally {
    await bot.relay.stop();
    await bot.standin.close();
  }
}

export async function firstRunBench(url: string, prefix: string, people: number): Promise<Row[]> {
  const far = await measured(url, `${prefix}:far`, people, SLACK_MS);
  const near = await measured(url, `${prefix}:near`, people, 0);
  const extraMs = far.first.p50 - far.open.p50;
  const startMs = near.first.p50 - near.open.p50;
  const unit = 'ms' as const;
  return [
    row(GROUP, `run → result on an open session, Slack ${SLACK_MS} ms away = floor`, far.open, { unit }),
    row(GROUP, `a person's first run → result (stdio session start), Slack ${SLACK_MS} ms away`, far.first, {
      unit,
      floorP50: far.open.p50,
      note: `${Math.round(extraMs)} ms more than a run on an open session (p50), where the session start alone costs ${Math.round(startMs)} ms (Slack next door, below)`,
    }),
    row(GROUP, 'run → result on an open session, Slack next door = floor', near.open, { unit }),
    row(GROUP, "a person's first run → result, Slack next door", near.first, {
      unit,
      floorP50: near.open.p50,
      note: 'nothing to hide the session start behind: its whole cost',
    }),
  ];
}
