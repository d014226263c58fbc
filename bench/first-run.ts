// A person's first `/mcp run` with a distant Slack: the "Running…" note is held NOTE_MS at the stand-in's
// response_url before Slack takes it, as a real response_url round trip takes 100–300 ms. The bot opens the
// person's MCP session (over stdio: a fixture process each) while the note is on its way (McpHub.warm), so a
// first run should wait only for whichever is longer, the note or the session start. Floor: the same people's
// next run, on the session now open, in the same run. The same again with the note next door (held 0 ms) shows
// what the session start costs a first run when nothing hides it.
import { startBot, type Bot } from './bot.js';
import { nowUs, row, summarize, type Row } from './stats.js';

const GROUP = 'first run';
/** How long Slack's response_url takes to answer the "Running…" note, in ms. */
const NOTE_MS = 200;
/** Longest wait for one run's result, in ms. */
const WAIT_MS = 15_000;

/** `/mcp run fixture echo` as `userId`, its note held `noteMs`: ms from the command to its result posted. */
async function runToResult(bot: Bot, userId: string, noteMs: number, marker: string): Promise<number> {
  const { standin, driver } = bot;
  const held = standin.holdNext('response_url');
  void held.arrived.then(() => setTimeout(() => held.release(), noteMs));
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

/** `people` first runs (each a session start), then each person's run on the session it opened. */
async function firstThenOpen(bot: Bot, people: number, noteMs: number): Promise<[number[], number[]]> {
  const users = Array.from({ length: people }, (_, i) => `U0FIRST${noteMs}X${i}`);
  const first: number[] = [];
  const open: number[] = [];
  for (const user of users) first.push(await runToResult(bot, user, noteMs, `${user}-first`));
  for (const user of users) open.push(await runToResult(bot, user, noteMs, `${user}-open`));
  return [first, open];
}

export async function firstRunBench(url: string, prefix: string, people: number): Promise<Row[]> {
  const bot = await startBot(url, prefix);
  try {
    // The first compilation of every code path, on someone else.
    await firstThenOpen(bot, 2, NOTE_MS);
    const [far, farOpen] = await firstThenOpen(bot, people, NOTE_MS);
    const [near, nearOpen] = await firstThenOpen(bot, people, 0);
    const [farFloor, nearFloor] = [summarize(farOpen), summarize(nearOpen)];
    const hiddenMs = summarize(near).p50 - nearFloor.p50 - (summarize(far).p50 - farFloor.p50);
    const unit = 'ms' as const;
    return [
      row(GROUP, `run → result on an open session, note ${NOTE_MS} ms away = floor`, farFloor, { unit }),
      row(
        GROUP,
        `a person's first run → result (stdio session start), note ${NOTE_MS} ms away`,
        summarize(far),
        {
          unit,
          floorP50: farFloor.p50,
          note: `the session start opened while the note was on its way hid ${Math.round(hiddenMs)} ms of it (p50)`,
        },
      ),
      row(GROUP, 'run → result on an open session, note next door (0 ms) = floor', nearFloor, { unit }),
      row(GROUP, "a person's first run → result, note next door (0 ms)", summarize(near), {
        unit,
        floorP50: nearFloor.p50,
        note: 'nothing to hide the session start behind: its whole cost',
      }),
    ];
  } finally {
    await bot.relay.stop();
    await bot.standin.close();
  }
}
