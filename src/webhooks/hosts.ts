// Which callback URLs may be called (ELICIT_RELAY_WEBHOOK_HOSTS), checked twice: on the URL when a question or
// call is created (the API answers 400 with the reason), and on the address the host resolved to just before
// each attempt, which is then the address connected to (so DNS cannot swap it between check and connect).
// Pure: no I/O here; resolving is the deliverer's job.
import { BlockList, isIP } from 'node:net';
import {
  hostOf,
  normalHost,
  readHostEntry,
  webhookHostsError,
  type AllowedHost,
} from '../config/webhook-hosts.js';
import type { WebhookRefusal } from './errors.js';

export type { AllowedHost };

export type AllowList = readonly AllowedHost[];

/**
 * Parses `host`, `host:port`, `v6`, `[v6]` and `[v6]:port` entries, comma-separated, as a callbackUrl's host is
 * read (src/config/webhook-hosts.ts); `bad` names the first entry no callbackUrl could match.
 */
export function parseAllowList(value: string): { hosts: AllowList } | { bad: string } {
  const hosts: AllowedHost[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const parsed = readHostEntry(entry);
    if ('why' in parsed) return { bad: entry };
    hosts.push(parsed);
  }
  return { hosts };
}

/**
 * The allow-list of ELICIT_RELAY_WEBHOOK_HOSTS entries (config.api.webhookHosts). A bad entry stops start-up
 * (the config check refuses it first, in the same words; this also guards the sandbox's own receiver entry).
 */
export function allowListOf(hosts: readonly string[]): AllowList {
  const parsed = parseAllowList(hosts.join(','));
  if ('hosts' in parsed) return parsed.hosts;
  throw webhookHostsError(parsed.bad);
}

/** The parts of a callback URL a delivery needs: where to connect and what to ask for. */
export interface CallbackTarget {
  url: URL;
  host: string;
  port: number;
  entry: AllowedHost;
}

/** Checks a callback URL against the allow-list: the target when allowed, else the refusal with its reason. */
export function checkCallbackUrl(value: string, allowed: AllowList): CallbackTarget | WebhookRefusal {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { code: 'invalid_url', reason: `"${value}" is not an absolute URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { code: 'invalid_url', reason: `must be an http(s) URL, not ${url.protocol}` };
  }
  if (url.username || url.password) {
    return { code: 'invalid_url', reason: 'must not carry a user name or password' };
  }
  if (allowed.length === 0) {
    return {
      code: 'webhooks_disabled',
      reason: `host ${url.host} is not allowed (no host is: set ELICIT_RELAY_WEBHOOK_HOSTS)`,
    };
  }
  const host = hostOf(url);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const entry = allowed.find((a) => a.host === host && (a.port === undefined || a.port === port));
  if (!entry) {
    return {
      code: 'host_not_allowed',
      reason: `host ${url.host} is not allowed (add it to ELICIT_RELAY_WEBHOOK_HOSTS)`,
    };
  }
  return { url, host, port, entry };
}

export function isRefusal(value: CallbackTarget | WebhookRefusal): value is WebhookRefusal {
  return 'code' in value;
}

/**
 * Addresses a name in the list may not resolve to unless the entry names them itself (an IP literal, or
 * `localhost` for loopback): the bot's own host, link-local (cloud metadata at 169.254.169.254), the cloud
 * metadata services outside it (AWS's on IPv6, fd00:ec2::254; Alibaba Cloud's, 100.100.100.200), "this host"
 * and multicast, and the NAT64 forms of the IPv4 ones (nat64Ipv4). This is what stops an allowed name that is
 * re-pointed (DNS rebinding) from reaching them. Private ranges (10/8, 192.168/16, fd00::/8…) stay allowed: an
 * internal CI server is a normal receiver.
 */
const special = new BlockList();
special.addSubnet('127.0.0.0', 8, 'ipv4');
special.addSubnet('0.0.0.0', 8, 'ipv4');
special.addSubnet('169.254.0.0', 16, 'ipv4');
special.addAddress('100.100.100.200', 'ipv4');
special.addSubnet('224.0.0.0', 4, 'ipv4');
special.addSubnet('255.255.255.255', 32, 'ipv4');
special.addAddress('::1', 'ipv6');
special.addAddress('::', 'ipv6');
special.addAddress('fd00:ec2::254', 'ipv6');
special.addSubnet('fe80::', 10, 'ipv6');
special.addSubnet('ff00::', 8, 'ipv6');

/** The well-known NAT64 prefix (RFC 6052): 64:ff9b::<v4> reaches <v4> through the network's NAT64 gateway. */
const nat64 = new BlockList();
nat64.addSubnet('64:ff9b::', 96, 'ipv6');

/** The IPv4 address a NAT64 address (64:ff9b::/96) reaches: its last 32 bits; undefined for other addresses. */
function nat64Ipv4(address: string): string | undefined {
  if (!nat64.check(address, 'ipv6')) return undefined;
  const words = ipv6Words(address);
  const [high = 0, low = 0] = words.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit words of an IPv6 address (isIP 6), `::` expanded. */
function ipv6Words(address: string): number[] {
  const [head = '', tail = ''] = (address.split('%', 1)[0] ?? '').split('::');
  const [first, last] = [wordsOf(head), wordsOf(tail)];
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The words written in part of an IPv6 address: hex groups, a dotted IPv4 tail counting as two. */
function wordsOf(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return { address: mapped, family: 'ipv4' };
  const version = isIP(address);
  if (version === 0) return undefined;
  return { address: normalHost(address), family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Checks the address a target's host resolved to; undefined when the attempt may connect to it. */
export function checkAddress(target: CallbackTarget, address: string): string | undefined {
  const resolved = unmapped(address);
  if (!resolved) return `${target.host} resolved to "${address}", which is not an IP address`;
  const { host } = target.entry;
  if (isIP(host) !== 0) {
    return unmapped(host)?.address === resolved.address
      ? undefined
      : `${host} resolved to ${address}, not to itself`;
  }
  if (host === 'localhost') {
    return loopback.check(resolved.address, resolved.family)
      ? undefined
      : `localhost resolved to ${address}, which is not a loopback address`;
  }
  const viaNat64 = resolved.family === 'ipv6' ? nat64Ipv4(resolved.address) : undefined;
  const refused =
    special.check(resolved.address, resolved.family) ||
    (viaNat64 !== undefined && special.check(viaNat64, 'ipv4'));
  if (!refused) return undefined;
  return `${target.host} resolved to ${address}, an address ELICIT_RELAY_WEBHOOK_HOSTS does not name`;
}
