// One person's browser for the sign-in pages: GETs without following redirects, keeping the cookies the bot sets
// and sending them back, as a browser does for a top-level navigation (SameSite=Lax lets them through). The
// cookies are kept by name only: every page here is on one test host, so path and scheme never tell them apart.
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();
  /** The Set-Cookie headers of every answer, in order, as the bot sent them. */
  readonly setCookies: string[] = [];

  /** `language`: the browser's Accept-Language. */
  constructor(private readonly language = 'en') {}

  async get(url: string | URL): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = { 'accept-language': this.language, ...(cookie === '' ? {} : { cookie }) };
    const response = await fetch(url, { redirect: 'manual', headers });
    for (const set of response.headers.getSetCookie()) {
      this.setCookies.push(set);
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  /** The page's text at `#id` (its HTML entities read back), or undefined. */
  static textOf(html: string, id: string): string | undefined {
    const text = new RegExp(`<[a-z]+ id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
    return text?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  }

  /** The href of the page's link `#id`, read back, or undefined. */
  static linkOf(html: string, id: string): URL | undefined {
    const href = new RegExp(`<a id="${id}" href="([^"]*)">`).exec(html)?.[1];
    return href === undefined
      ? undefined
      : new URL(href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))));
  }
}
