// One ELICIT_RELAY_WEBHOOK_HOSTS entry (`host`, `host:port`, a bare IPv6 address, `[v6]` or `[v6]:port`) read
// the way a callbackUrl's host is: by WHATWG URL parsing, the judge of what host a callbackUrl has. So every host
// a callbackUrl can name can be listed (`hook_sink:8080`, a Docker Compose service; `::1`; `bücher.example`),
// the entry and the URL compare in one canonical form (`127.1` is 127.0.0.1, `[0:0::1]` is ::1, case and a
// trailing dot do not count), and an entry no URL could ever name is refused, saying why. Used by the start-up
// check (api.ts) and the allow-list (src/webhooks/hosts.ts), so the two cannot disagree.
import { isIP } from 'node:net';
import { ConfigError } from './error.js';

/** One allowed host: a name or IP address (as hostOf gives it), and the port when the entry names one. */
export interface AllowedHost {
  host: string;
  port?: number;
}

/** A host as compared: lower case, without IPv6 brackets or a trailing dot. */
export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** A URL's host as compared: WHATWG's canonical hostname, normalHost'd. */
export const hostOf = (url: URL): string => normalHost(url.hostname);

/** The start-up error for an entry (trimmed) that readHostEntry refuses: the entry, why, and the fix. */
export function webhookHostsError(entry: string): ConfigError {
  const read = readHostEntry(entry);
  const why = 'why' in read ? read.why : 'is not a host';
  return new ConfigError(
    'ELICIT_RELAY_WEBHOOK_HOSTS',
    `"${entry}" ${why}`,
    'List host names or IP addresses, each with an optional :port, separated by commas, ' +
      'e.g. "ci.example.com,hook_sink:8080,[::1]:8443".',
  );
}

/** The entry (trimmed, not blank) as an allowed host, or why no callbackUrl could ever match it. */
export function readHostEntry(entry: string): AllowedHost | { why: string } {
  const parts = splitEntry(entry);
  if ('why' in parts) return parts;
  const port = parts.port === undefined ? undefined : portOf(parts.port);
  if (typeof port === 'object') return port;
  const host = hostIn(parts.host);
  if (typeof host === 'object') return host;
  return { host, ...(port === undefined ? {} : { port }) };
}

/** The host and port text of an entry: a bare IPv6 address has no port, a bracketed one may. */
function splitEntry(entry: string): { host: string; port?: string } | { why: string } {
  // isIP takes a zone ("fe80::1%eth0") too: the URL parse then refuses it, saying so.
  if (isIP(entry) === 6) return { host: `[${entry}]` };
  if (entry.startsWith('[')) {
    const match = /^(\[[^\]]*\])(?::(.*))?$/s.exec(entry);
    if (match?.[1] === undefined) return { why: 'has text after its "]" that is not ":<port>"' };
    return { host: match[1], ...(match[2] === undefined ? {} : { port: match[2] }) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return { why: 'is a URL, not a host: list only its host, or host:port' };
  }
  const colon = entry.indexOf(':');
  if (colon === -1) return { host: entry };
  if (entry.indexOf(':', colon + 1) !== -1) {
    return {
      why: 'has several ":" but is no IPv6 address; write an IPv6 address alone or as [address]:port',
    };
  }
  return { host: entry.slice(0, colon), port: entry.slice(colon + 1) };
}

/** A port a callback can be delivered to: 1 to 65535 (port 0 cannot be connected to). */
function portOf(text: string): number | { why: string } {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (port >= 1 && port <= 65535) return port;
  return { why: `has the port ${JSON.stringify(text)}, which is not a number from 1 to 65535` };
}

/**
 * The host as WHATWG URL parsing reads it in `http://<host>/`. Characters that would end the host there (a path,
 * a query, user info) are refused first: with them the URL would parse, to some other host.
 */
function hostIn(text: string): string | { why: string } {
  if (text === '' || text === '[]') return { why: 'names no host' };
  if (/[/?#@\\\s]/.test(text) || /\p{Cc}/u.test(text)) {
    return { why: 'is not a host: only a host name or IP address, and a port, may be listed' };
  }
  if (!URL.canParse(`http://${text}/`)) {
    const ipv6 = text.startsWith('[');
    return {
      why: ipv6
        ? 'is not an IPv6 address a URL can have (no zone "%…", no IPv4 in brackets), so no callbackUrl could name it'
        : 'is not a host a URL can have (URL parsing refuses it), so no callbackUrl could name it',
    };
  }
  return hostOf(new URL(`http://${text}/`));
}
