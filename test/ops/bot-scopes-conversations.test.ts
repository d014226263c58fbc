// The scopes the app is installed with (BOT_SCOPES, the same as manifest.yml's, manifest-usage.test.ts) against
// the conversations the bot meets: a stand-in whose token has exactly those scopes answers `missing_scope`, as
// Slack does, for any call on a conversation type they leave out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SLACK_POLICY, type SlackPolicy } from '../../src/config/index.js';
import { Audience } from '../../src/slack/audience.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { question } from '../support/question.js';
import { standinClient } from '../slack/standin-client.js';

const TOKEN = 'xoxb-installed-scopes';

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN, scopes: BOT_SCOPES });
});
afterAll(() => standin.close());

/** A server whose runs answer in the command's thread, where anyone in the conversation may answer. */
const threadToAnyone: SlackPolicy = {
  ...DEFAULT_SLACK_POLICY,
  route: 'thread',
  answerers: { requester: false, users: [], usergroups: [], channel: true },
};

/** The answerers of a question from a `/mcp run` typed in `channelId`, and who of `people` may answer it. */
async function whoMayAnswer(channelId: string, people: string[]): Promise<string[]> {
  const audience = new Audience(singleWorkspace(standinClient(standin, TOKEN)), () => threadToAnyone);
  const origin = { userId: 'U1', channelId };
  const answerers = await audience.answerersFor('srv', origin);
  expect(answerers).toEqual({ users: [], channel: channelId });
  const asked = question({ origin, ...(answerers ? { answerers } : {}) });
  const may = await Promise.all(people.map((id) => audience.mayAnswer(asked, id)));
  return people.filter((_, i) => may[i]);
}

describe('the installed bot scopes on the conversations a run can start in', () => {
  it('let anyone in a group DM answer a run started there (conversations.members needs mpim:read)', async () => {
    // The group DM the bot opened for an API question to several people; the bot is in it, so a run typed
    // there starts its thread there.
    const groupDm = standin.mpimChannelOf(['U1', 'U2']);
    expect(await whoMayAnswer(groupDm, ['U1', 'U2', 'U3'])).toEqual(['U1', 'U2']);
  });

  it('let the requester answer a run started in their DM with the bot (conversations.members needs im:read)', async () => {
    expect(await whoMayAnswer(standin.dmChannelOf('U1'), ['U1', 'U2'])).toEqual(['U1']);
  });
});
