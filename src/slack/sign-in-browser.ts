// Binds a Connect link's Slack identity check to the browser that does it, so neither step can be forwarded:
// the start page gives the browser a random id in a cookie (reused when it has one, so two links in two tabs both
// work) and sends Slack a nonce derived from it and the link's `state`; Slack's callback is accepted only with
// that cookie and an id_token carrying that nonce. Once the person is the link's owner, a second cookie records
// it for that `state`, and the MCP sign-in's callback needs it: an authorization server's page copied from a
// checked browser and opened in another completes nothing. Both are derived (HMAC-SHA256) from a key made from
// the app's client secret, so every replica checks them without storing anything. Cookies: HttpOnly, SameSite=Lax
// (Slack's and the authorization server's redirects back are top-level GETs, which carry them), living as long as a
// link (STATE_TTL_SEC). On an https public URL they are `__Host-` cookies (Secure, Path=/, no Domain) and only those
// names are read: Mallory knows her own browser id and her link's verified value, and a cookie without the prefix
// can be set for this host by a sibling subdomain (Domain=parent) or by an http page, which would hand Bob's
// browser her check. On an http public URL (the sandbox, a trial on one machine) they are plain cookies scoped to
// the sign-in pages' folder: no prefix is possible without Secure.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const BROWSER_COOKIE = 'elicit_relay_browser';
/** The prefix browsers keep for cookies set by the host itself over https, with Path=/ and no Domain. */
const HOST_ONLY = '__Host-';
/** The verified cookie of a `state` is this followed by a short id of the state (one per link). */
const VERIFIED_COOKIE = 'elicit_relay_connect_';
/** A Connect link lives 10 minutes (src/mcp's STATE_TTL_SEC); so do its cookies, in seconds. */
const COOKIE_MAX_AGE_SEC = 600;
/** What newBrowser makes: 24 random bytes, base64url. */
const BROWSER_SHAPE = /^[\w-]{32}$/;

export class BrowserBinding {
  private readonly key: Buffer;

  /** `secret`: the app's client secret, which every replica has; the key is derived from it, never sent. */
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('elicit-relay sign-in browser binding v1').digest();
  }

  /** The browser id the request's cookie carries, when it carries one; `pages` as for browserCookie. */
  browserOf(req: IncomingMessage, pages: URL): string | undefined {
    const id = cookiesOf(req).get(nameOf(BROWSER_COOKIE, pages));
    return id !== undefined && BROWSER_SHAPE.test(id) ? id : undefined;
  }

  newBrowser(): string {
    return randomBytes(24).toString('base64url');
  }

  /** The nonce Slack puts in the id_token of this browser's sign-in for `state`. */
  nonceFor(browser: string, state: string): string {
    return this.mac('nonce', browser, state);
  }

  /** Set-Cookie for the browser id; `pages` is the callback's URL (its folder and scheme). */
  browserCookie(browser: string, pages: URL): string {
    return cookie(nameOf(BROWSER_COOKIE, pages), browser, pages);
  }

  /** Set-Cookie recording that this browser is the owner of `state`'s link. */
  verifiedCookie(state: string, pages: URL): string {
    return cookie(this.verifiedName(state, pages), this.mac('verified', state), pages);
  }

  /** True when the request carries the verified cookie of `state`; `pages` as for browserCookie. */
  isVerified(req: IncomingMessage, state: string, pages: URL): boolean {
    const given = cookiesOf(req).get(this.verifiedName(state, pages));
    if (given === undefined) return false;
    const expected = Buffer.from(this.mac('verified', state));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  private verifiedName(state: string, pages: URL): string {
    return nameOf(`${VERIFIED_COOKIE}${this.mac('name', state).slice(0, 16)}`, pages);
  }

  private mac(...parts: string[]): string {
    return createHmac('sha256', this.key).update(parts.join('\n')).digest('base64url');
  }
}

const isHttps = (pages: URL): boolean => pages.protocol === 'https:';

/** A cookie's name as set and read for pages at `pages`: host-only on https. */
const nameOf = (name: string, pages: URL): string => (isHttps(pages) ? `${HOST_ONLY}${name}` : name);

function cookie(name: string, value: string, pages: URL): string {
  // A __Host- cookie must have Path=/; a plain one keeps to the sign-in pages' folder.
  const scope = isHttps(pages)
    ? 'Path=/'
    : `Path=${pages.pathname.slice(0, pages.pathname.lastIndexOf('/') + 1)}`;
  const secure = isHttps(pages) ? '; Secure' : '';
  return `${name}=${value}; ${scope}; Max-Age=${COOKIE_MAX_AGE_SEC}; HttpOnly; SameSite=Lax${secure}`;
}

/** The request's cookies by name (the first of a name wins, as browsers send the most specific path first). */
function cookiesOf(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, pair.slice(at + 1).trim());
  }
  return cookies;
}
