import { describe, expect, it } from 'vitest';
import { parseAllowList, refuseCallbackUrl, type AllowList } from '../../src/webhooks/index.js';
import { checkAddress, checkCallbackUrl, isRefusal } from '../../src/webhooks/hosts.js';

function allow(value: string): AllowList {
  const parsed = parseAllowList(value);
  if ('bad' in parsed) throw new Error(`bad entry ${parsed.bad}`);
  return parsed.hosts;
}

describe('the callback host allow-list', () => {
  it('reads host names, host:port pairs and IPv6 addresses, ignoring blanks', () => {
    expect(allow(' ci.example.com, hooks.example.com:8443,,[::1]:9000, ::1 ')).toEqual([
      { host: 'ci.example.com' },
      { host: 'hooks.example.com', port: 8443 },
      { host: '::1', port: 9000 },
      { host: '::1' },
    ]);
  });

  it('names an entry that is not a host or host:port', () => {
    expect(parseAllowList('ok.example.com,https://x.example.com')).toEqual({ bad: 'https://x.example.com' });
    expect(parseAllowList('a.example.com:99999')).toEqual({ bad: 'a.example.com:99999' });
    expect(parseAllowList('user@a.example.com')).toEqual({ bad: 'user@a.example.com' });
  });

  it('allows a listed host on any port, and a listed host:port on that port only', () => {
    const list = allow('ci.example.com,hooks.example.com:8443');
    expect(refuseCallbackUrl('https://ci.example.com:9999/x', list)).toBeUndefined();
    expect(refuseCallbackUrl('https://CI.example.com./x', list)).toBeUndefined();
    expect(refuseCallbackUrl('https://hooks.example.com:8443/x?y=1', list)).toBeUndefined();
    expect(refuseCallbackUrl('https://hooks.example.com/x', list)).toEqual({
      code: 'host_not_allowed',
      reason: 'host hooks.example.com is not allowed (add it to ELICIT_RELAY_WEBHOOK_HOSTS)',
    });
  });

  it('refuses other hosts, other schemes, credentials and an empty list, each with its reason', () => {
    const list = allow('ci.example.com');
    expect(refuseCallbackUrl('https://evil.example.com/x', list)?.code).toBe('host_not_allowed');
    expect(refuseCallbackUrl('ftp://ci.example.com/x', list)?.code).toBe('invalid_url');
    expect(refuseCallbackUrl('https://u:p@ci.example.com/x', list)?.code).toBe('invalid_url');
    expect(refuseCallbackUrl('not a url', list)?.code).toBe('invalid_url');
    expect(refuseCallbackUrl('https://ci.example.com/x', [])).toEqual({
      code: 'webhooks_disabled',
      reason: 'host ci.example.com is not allowed (no host is: set ELICIT_RELAY_WEBHOOK_HOSTS)',
    });
  });
});

describe('the resolved address of an allowed host', () => {
  function target(url: string, list: string) {
    const checked = checkCallbackUrl(url, allow(list));
    if (isRefusal(checked)) throw new Error(checked.reason);
    return checked;
  }

  it('may be public or private for a listed name', () => {
    const t = target('https://ci.example.com/x', 'ci.example.com');
    expect(checkAddress(t, '203.0.113.7')).toBeUndefined();
    expect(checkAddress(t, '10.1.2.3')).toBeUndefined();
    expect(checkAddress(t, '2001:db8::1')).toBeUndefined();
  });

  it('may not be loopback, link-local, unspecified or multicast for a listed name (DNS rebinding)', () => {
    const t = target('https://ci.example.com/x', 'ci.example.com');
    for (const address of [
      '127.0.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ]) {
      expect(checkAddress(t, address), address).toMatch(/does not name/);
    }
  });

  it('may not be a cloud metadata service outside link-local (AWS on IPv6, Alibaba Cloud) for a listed name', () => {
    const t = target('https://ci.example.com/x', 'ci.example.com');
    for (const address of ['fd00:ec2::254', 'FD00:EC2:0::254', '100.100.100.200', '::ffff:100.100.100.200']) {
      expect(checkAddress(t, address), address).toMatch(/does not name/);
    }
    // Their neighbours are ordinary private addresses.
    expect(checkAddress(t, 'fd00:ec2::253')).toBeUndefined();
    expect(checkAddress(t, '100.100.100.201')).toBeUndefined();
  });

  it('may not be a refused IPv4 address through NAT64 (64:ff9b::/96), in hex or dotted form', () => {
    const t = target('https://ci.example.com/x', 'ci.example.com');
    for (const address of [
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '64:ff9b:0:0:0:0:a9fe:a9fe',
      '64:ff9b::7f00:1',
      '64:ff9b::100.100.100.200',
      '64:ff9b::e000:1',
      '64:ff9b::',
    ]) {
      expect(checkAddress(t, address), address).toMatch(/does not name/);
    }
    // A public IPv4 address reached through NAT64 is a normal receiver.
    expect(checkAddress(t, '64:ff9b::cb00:7107')).toBeUndefined();
    expect(checkAddress(t, '64:ff9b::203.0.113.7')).toBeUndefined();
  });

  it('is the address itself for a listed IP, and loopback for localhost', () => {
    expect(checkAddress(target('http://127.0.0.1:8080/x', '127.0.0.1:8080'), '127.0.0.1')).toBeUndefined();
    expect(checkAddress(target('http://[::1]:8080/x', '[::1]:8080'), '::1')).toBeUndefined();
    expect(checkAddress(target('http://localhost:8080/x', 'localhost'), '::1')).toBeUndefined();
    expect(checkAddress(target('http://localhost:8080/x', 'localhost'), '10.0.0.1')).toMatch(
      /not a loopback/,
    );
  });
});
