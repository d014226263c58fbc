// What the system tests of signing in to a server that needs it (issue #20) share: the OAuth authorization
// server fixture with the protected tracker behind it, and what a person reads from the bot's DMs (the next
// message, a Connect message's link, and a browser opening it and clicking Continue).
import { startOAuthServer, type OAuthServer } from '../../src/sandbox/oauth/index.js';
import type { RecordedCall, SlackStandin } from '../../src/standin/index.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/protected-server.js';
import { SignInBrowser } from '../support/sign-in-browser.js';

export interface SignInServers {
  oauth: OAuthServer;
  tracker: ProtectedServer;
  /** Closes the tracker, then the authorization server. */
  close(): Promise<void>;
}

export async function startSignInServers(): Promise<SignInServers> {
  const oauth = await startOAuthServer();
  const tracker = await startProtectedServer(oauth);
  const close = async (): Promise<void> => {
    await tracker.close();
    await oauth.close();
  };
  return { oauth, tracker, close };
}

export interface DmPost {
  userId: string;
  /** Text the message's blocks contain. */
  text: string;
  /** The workspace it is posted in; any when not given. */
  teamId?: string;
}

/** The next message posted (30 s at most) to the person's DM as `want` says, not in `seen`; it is added to it. */
export async function nextDmPost(
  standin: SlackStandin,
  seen: Set<RecordedCall>,
  want: DmPost,
): Promise<RecordedCall> {
  const channel = standin.dmChannelOf(want.userId);
  const call = await standin.waitForCall(
    'chat.postMessage',
    (c) =>
      !seen.has(c) &&
      c.ok &&
      (want.teamId === undefined || c.teamId === want.teamId) &&
      c.args.channel === channel &&
      JSON.stringify(c.args.blocks).includes(want.text),
    30_000,
  );
  seen.add(call);
  return call;
}

/** The Connect message's button link: the bot's start page at its public URL. */
export function connectLink(message: RecordedCall): URL {
  const found = /"url":"(https?:\/\/[^"]+\/oauth\/mcp\/start\?[^"]+)"/.exec(
    JSON.stringify(message.args.blocks),
  );
  if (found?.[1] === undefined) throw new Error('no Connect link in the message');
  return new URL(found[1]);
}

/**
 * A person's browser opening a Connect link: the bot's start page, reached at `bot` (a replica's address, as the
 * public URL's load balancer would), whose Continue (or Sign in with Slack, where the bot has the app's client
 * credentials: pass a browser that knows who signs in) leads to the authorization server's page.
 */
export function openConnectLink(link: URL, bot: string, browser = new SignInBrowser()): Promise<URL> {
  return browser.open(new URL(`${link.pathname}${link.search}`, bot));
}
