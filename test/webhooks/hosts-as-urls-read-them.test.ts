// ELICIT_RELAY_WEBHOOK_HOSTS takes every host a callbackUrl can have (WHATWG URL parsing judges a callbackUrl's
// host): the start-up check (src/config/api.ts) and the allow-list (src/webhooks/hosts.ts) read an entry alike,
// compare it with a URL's host in one canonical form, and refuse at start-up, naming the entry and why, one no
// callbackUrl could ever name.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { allowListOf, parseAllowList, refuseCallbackUrl } from '../../src/webhooks/index.js';
import { configErrorOf } from '../support/config.js';

/** The allow-list a bot starts with when ELICIT_RELAY_WEBHOOK_HOSTS is `value`: the config's, then the API's. */
const started = (value: string) =>
  allowListOf(
    loadConfig({
      env: { ELICIT_RELAY_CONFIG: 'c.json', ELICIT_RELAY_WEBHOOK_HOSTS: value },
      readFile: () => '{}',
    }).api.webhookHosts,
  );

const startUpError = (value: string) => configErrorOf(() => started(value));

describe('an ELICIT_RELAY_WEBHOOK_HOSTS entry a callbackUrl can name', () => {
  it.each([
    ['hook_sink:8080', 'http://hook_sink:8080/hooks'],
    ['Hook_Sink', 'https://hook_sink/hooks'],
    ['::1', 'http://[::1]:9000/'],
    ['[::1]:8443', 'https://[::1]:8443/x'],
    ['bücher.example', 'https://xn--bcher-kva.example/x'],
    ['xn--bcher-kva.example', 'https://BÜCHER.example/x'],
    ['127.1', 'http://127.0.0.1/'],
    ['[0:0:0:0:0:0:0:1]:8443', 'http://[::1]:8443/'],
    ['::ffff:127.0.0.1', 'http://[::ffff:7f00:1]/'],
    ['localhost.', 'http://localhost:3000/'],
  ])('%s starts the bot and allows %s', (entry, url) => {
    const allowed = started(entry);
    expect(refuseCallbackUrl(url, allowed)).toBeUndefined();
  });

  it('still allows only the port an entry names', () => {
    const allowed = started('hook_sink:8080, [::1]:8443');
    expect(refuseCallbackUrl('http://hook_sink:8081/', allowed)?.code).toBe('host_not_allowed');
    expect(refuseCallbackUrl('http://[::1]:8444/', allowed)?.code).toBe('host_not_allowed');
    expect(refuseCallbackUrl('http://other_sink:8080/', allowed)?.code).toBe('host_not_allowed');
  });
});

describe('an ELICIT_RELAY_WEBHOOK_HOSTS entry no callbackUrl can name', () => {
  it.each([
    ['https://hooks.example.com', /"https:\/\/hooks\.example\.com" is a URL, not a host/],
    ['999.1.1.1', /"999\.1\.1\.1" is not a host a URL can have/],
    ['hook sink', /"hook sink" is not a host:/],
    ['user@hooks.example.com', /"user@hooks\.example\.com" is not a host:/],
    ['hooks.example.com/path', /"hooks\.example\.com\/path" is not a host:/],
    ['fe80::1%eth0', /"fe80::1%eth0" is not an IPv6 address a URL can have/],
    ['[127.0.0.1]', /"\[127\.0\.0\.1\]" is not an IPv6 address a URL can have/],
    ['[::1]8443', /"\[::1\]8443" has text after its "\]"/],
    ['hooks.example.com:0', /has the port "0", which is not a number from 1 to 65535/],
    ['hooks.example.com:99999', /has the port "99999"/],
    ['hooks.example.com:', /has the port "", which/],
    [':8080', /":8080" names no host/],
    ['a:b:c', /has several ":" but is no IPv6 address/],
  ])('%s stops start-up naming the entry, why and the fix', (entry, why) => {
    const error = startUpError(`ok.example.com, ${entry}`);
    expect(error.key).toBe('ELICIT_RELAY_WEBHOOK_HOSTS');
    expect(error.message).toMatch(why);
    expect(error.message).toContain('e.g. "ci.example.com,hook_sink:8080,[::1]:8443"');
  });

  it('is named as it was written, not lower-cased', () => {
    expect(startUpError('Hooks Example').message).toMatch(/"Hooks Example" is not a host/);
  });
});

describe('the start-up check and the allow-list', () => {
  it.each([
    ['hook_sink:8080', true],
    ['::1', true],
    ['[::1]:8443', true],
    ['bücher.example', true],
    ['a*b', true],
    ['999.1.1.1', false],
    ['fe80::1%eth0', false],
    ['https://x', false],
    ['x:0', false],
  ])('agree on %s (accepted: %s)', (entry, accepted) => {
    const atStartUp = (): unknown => started(entry);
    if (accepted) expect(atStartUp).not.toThrow();
    else expect(atStartUp).toThrow(/ELICIT_RELAY_WEBHOOK_HOSTS/);
    expect('hosts' in parseAllowList(entry)).toBe(accepted);
  });
});
