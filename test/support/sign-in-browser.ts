// A person's browser as far as the bot's sign-in pages need one. A Connect button opens the bot's start page,
// which names whose account the link connects and offers Continue to the authorization server's page; tests
// follow a Connect link through here (reading the page and clicking Continue) as a person would. Where the bot
// has the app's client credentials the page offers Sign in with Slack instead: this browser signs in on the
// stand-in's page as `slackUser` and follows the bot on to the authorization server's page, keeping the cookies
// the bot sets (by name: the test's pages are all on one host).
import { START_PATH } from '../../src/slack/sign-in-links.js';

/** What the start page shows: whose link it is (its text) and where its Continue leads. */
export interface StartPage {
  owner: string;
  proceed: URL;
}

/** An HTML attribute or text as the bot escaped it (`&#38;` for `&`, and so on), read back. */
const unescape = (html: string): string =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Reads the start page's owner text and Continue link; throws with the page when it is not one. */
export function startPageOf(html: string): StartPage {
  const owner = /<p id="owner">([^<]*)<\/p>/.exec(html)?.[1];
  const proceed = /<a id="continue" href="([^"]*)">/.exec(html)?.[1];
  if (owner === undefined || proceed === undefined) throw new Error(`not the start page: ${html}`);
  return { owner: unescape(owner), proceed: new URL(unescape(proceed)) };
}

export class SignInBrowser {
  private readonly cookies = new Map<string, string>();

  /** `slackUser`: who signs in with Slack when a start page asks (the stand-in's own workspace unless named). */
  constructor(private readonly slackUser?: { userId: string; teamId?: string }) {}

  /** A GET without following redirects, with the cookies the bot set. */
  async get(url: string | URL, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      this.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  }

  /** Opens a Connect link (the bot's start page) and reads it. */
  async read(connectUrl: string | URL): Promise<StartPage> {
    const response = await this.get(connectUrl);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the Connect link answered ${response.status}: ${html}`);
    return startPageOf(html);
  }

  /**
   * Opens a Connect link and clicks Continue (or signs in with Slack as `slackUser`, when the page asks): the
   * authorization server's page it leads to.
   */
  async open(connectUrl: string | URL): Promise<URL> {
    const response = await this.get(connectUrl);
    const html = await response.text();
    const signIn = /<a id="slack-sign-in" href="([^"]*)">/.exec(html)?.[1];
    if (signIn === undefined) return startPageOf(html).proceed;
    const back = await this.signInWithSlack(new URL(unescape(signIn)));
    // Slack sends the browser to the bot's public URL: reached, as the Connect link was, at the bot's address.
    const checked = await this.get(new URL(`${back.pathname}${back.search}`, connectUrl));
    const next = checked.headers.get('location');
    if (checked.status !== 302 || next === null)
      throw new Error(`Sign in with Slack answered ${checked.status}: ${await checked.text()}`);
    return new URL(next);
  }

  /** On the stand-in's Sign in with Slack page, signs in as `slackUser`: where Slack sends the browser back. */
  private async signInWithSlack(authorize: URL): Promise<URL> {
    if (this.slackUser === undefined)
      throw new Error('the start page asks for Sign in with Slack: name a slackUser');
    const page = await (await this.get(authorize)).text();
    const field = (name: string): string =>
      unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '');
    const body = new URLSearchParams({
      authorize: field('authorize'),
      team: this.slackUser.teamId ?? field('team'),
      user: this.slackUser.userId,
    });
    const signedIn = await fetch(authorize, { method: 'POST', body, redirect: 'manual' });
    const back = signedIn.headers.get('location');
    if (back === null) throw new Error(`Slack's sign-in page refused: ${await signedIn.text()}`);
    return new URL(back);
  }

  /**
   * Opens the Connect link of `authorizationUrl` on the bot at `base` (the button's link, for a test that has the
   * authorization page but not the message) and clicks Continue.
   */
  openFor(base: string, authorizationUrl: URL): Promise<URL> {
    const state = authorizationUrl.searchParams.get('state') ?? '';
    return this.open(`${base}${START_PATH}?state=${encodeURIComponent(state)}`);
  }
}
