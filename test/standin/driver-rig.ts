// What the Slack driver's tests share: a stand-in (team T9, where U1 is ada), a receiver verifying requests
// as Bolt does, and a driver signing its requests to it; the payload the receiver got last, and a card or a
// modal for the person to act on.
import { afterEach, beforeEach } from 'vitest';
import { SlackDriver, type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi, cardBlocks, modal } from './helpers.js';
import { type Receiver, SIGNING_SECRET, startReceiver } from './receiver.js';

export interface DriverRig {
  standin: SlackStandin;
  receiver: Receiver;
  driver: SlackDriver;
}

/** Call once at a file's top level: a fresh rig before each test, handed to `use`, closed after the test. */
export function rigEachTest(use: (rig: DriverRig) => void): void {
  let rig: DriverRig | undefined;
  beforeEach(async () => {
    rig = await startDriverRig();
    use(rig);
  });
  afterEach(async () => {
    if (rig) await closeDriverRig(rig);
    rig = undefined;
  });
}

async function startDriverRig(): Promise<DriverRig> {
  const standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    teamId: 'T9',
    users: { U1: { name: 'ada' } },
  });
  const receiver = await startReceiver();
  const driver = new SlackDriver({ eventsUrl: receiver.url, signingSecret: SIGNING_SECRET, standin });
  return { standin, receiver, driver };
}

async function closeDriverRig({ standin, receiver }: DriverRig): Promise<void> {
  await receiver.close();
  await standin.close();
}

/** The parsed payload of the last request the receiver got. */
export const last = (receiver: Receiver): Record<string, unknown> =>
  receiver.received[receiver.received.length - 1]?.parsed ?? {};

export const userObj = { id: 'U1', username: 'ada', name: 'ada', team_id: 'T9' };
export const team = { id: 'T9', domain: 'standin' };

/** Posts a card with a Respond and a Decline button to U1's DM. */
export async function postCard(standin: SlackStandin): Promise<{ channel: string; ts: string }> {
  const channel = standin.dmChannelOf('U1');
  const { body } = await callApi(standin, 'chat.postMessage', {
    channel,
    text: 'card',
    blocks: cardBlocks(),
  });
  return { channel, ts: String(body.ts) };
}

/** Opens `view` for U1 as the bot would, with a fresh trigger_id; resolves with its id. */
export async function openModal(
  standin: SlackStandin,
  view: Record<string, unknown> = modal(),
): Promise<string> {
  const { body } = await callApi(standin, 'views.open', { trigger_id: standin.issueTriggerId('U1'), view });
  return (body.view as { id: string }).id;
}
