// A person's browser as far as the bot's sign-in pages need one. A Connect button opens the bot's start page,
// which names whose account the link connects and offers Continue to the authorization server's page; tests
// follow a Connect link through here (reading the page and clicking Continue) as a person would.
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
  /** A GET without following redirects. */
  get(url: string | URL, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(url, { redirect: 'manual', headers });
  }

  /** Opens a Connect link (the bot's start page) and reads it. */
  async read(connectUrl: string | URL): Promise<StartPage> {
    const response = await this.get(connectUrl);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the Connect link answered ${response.status}: ${html}`);
    return startPageOf(html);
  }

  /** Opens a Connect link and clicks Continue: the authorization server's page it leads to. */
  async open(connectUrl: string | URL): Promise<URL> {
    return (await this.read(connectUrl)).proceed;
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
