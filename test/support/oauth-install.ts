// Bolt's OAuth install as a browser runs it: /slack/install → Slack's authorize page (the stand-in approves
// for `teamId`) → /slack/oauth_redirect with the state cookie. Resolves with the final page's HTTP status.
import type { RecordedCall, SlackDriver, SlackStandin } from '../../src/standin/index.js';

export async function install(base: string, standin: SlackStandin, teamId: string): Promise<number> {
  const page = await fetch(`${base}/slack/install`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(await page.text())?.[1] ?? '';
  const back = standin.oauth.approve(href.replaceAll('&amp;', '&'), { teamId, userId: `UADMIN${teamId}` });
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  return done.status;
}

/** The one-field form the fixture's `ask` tool is asked to send. */
export const NAME_FORM = { type: 'object', properties: { name: { type: 'string', title: 'Name' } } };

/**
 * Runs `/mcp run fixture ask` as `userId` through `driver` (whose workspace is the new install) and resolves
 * with the card Slack got, once the bot has posted it.
 */
export async function askThroughInstall(
  driver: SlackDriver,
  standin: SlackStandin,
  userId: string,
): Promise<{ status: number; card: RecordedCall }> {
  const command = await driver.slashCommand({
    userId,
    command: '/mcp',
    text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
  });
  const card = await standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes('elicit_respond'),
    15_000,
  );
  return { status: command.status, card };
}
