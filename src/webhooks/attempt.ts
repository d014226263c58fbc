// One delivery attempt: check the URL against the allow-list, resolve its host, check the address, and POST to
// exactly that address (the request's lookup is pinned to it, so the connection cannot go elsewhere than what
// was checked). Redirects are not followed (node:http never does): a 3xx is a failed attempt like a 5xx.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { WebhookError } from './errors.js';
import { type AllowList, type CallbackTarget, checkAddress, checkCallbackUrl, isRefusal } from './hosts.js';

/** Resolves a host name to its addresses (node:dns lookup with `all`; a test passes its own answers). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface AttemptSettings {
  allowed: AllowList;
  resolve: Resolve;
  /** Longest wait for the receiver's status line, resolving included, in ms (PRODUCT: 10 s). */
  timeoutMs: number;
}

/** Why an attempt failed: `final` ones are not retried (the URL or its address is not allowed). */
export function isFinal(error: WebhookError): boolean {
  const finalCodes: readonly string[] = [
    'invalid_url',
    'webhooks_disabled',
    'host_not_allowed',
    'address_not_allowed',
  ];
  return finalCodes.includes(error.code);
}

/** POSTs `body` with `headers`; resolves with the 2xx status, rejects with a WebhookError otherwise. */
export async function attempt(
  url: string,
  body: string,
  headers: Record<string, string>,
  settings: AttemptSettings,
): Promise<number> {
  const target = checkCallbackUrl(url, settings.allowed);
  if (isRefusal(target)) throw new WebhookError(target.code, target.reason);
  const signal = AbortSignal.timeout(settings.timeoutMs);
  const address = await resolveChecked(target, settings.resolve, signal);
  const response = await post(target, address, body, headers, signal);
  response.resume();
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const note = redirectNote(response);
    const retryAfter = retryAfterOf(response);
    throw new WebhookError('bad_status', `the receiver answered ${status}${note}`, { retryAfter });
  }
  return status;
}

/** Retry-After where it asks the client to wait (RFC 6585 429, RFC 9110 503); a 3xx's is about the redirect. */
function retryAfterOf(response: IncomingMessage): string | undefined {
  if (response.statusCode !== 429 && response.statusCode !== 503) return undefined;
  return response.headers['retry-after'];
}

function redirectNote(response: IncomingMessage): string {
  const status = response.statusCode ?? 0;
  return status >= 300 && status < 400 ? ' (a redirect, which is not followed)' : '';
}

/** The address to connect to: every address the host resolves to must pass the check; the first is used. */
async function resolveChecked(
  target: CallbackTarget,
  resolve: Resolve,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  let addresses: { address: string; family: number }[];
  if (isIP(target.host) !== 0) addresses = [{ address: target.host, family: isIP(target.host) }];
  else {
    try {
      addresses = await Promise.race([resolve(target.host), aborted(signal)]);
    } catch (cause) {
      if (signal.aborted)
        throw new WebhookError('timeout', `resolving ${target.host} took too long`, { cause });
      throw new WebhookError('dns_failed', `${target.host} did not resolve`, { cause });
    }
  }
  const first = addresses[0];
  if (!first) throw new WebhookError('dns_failed', `${target.host} resolved to no address`);
  for (const { address } of addresses) {
    const refused = checkAddress(target, address);
    if (refused !== undefined) throw new WebhookError('address_not_allowed', refused);
  }
  return first;
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
}

/** The request's own lookup answers with the checked address only, whatever DNS says by now. */
function pinned(address: string, family: number): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function post(
  target: CallbackTarget,
  resolved: { address: string; family: number },
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const options: RequestOptions = {
    method: 'POST',
    host: target.host,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    lookup: pinned(resolved.address, resolved.family),
    // A fresh connection per attempt: a kept-alive socket could outlive the address check.
    agent: false,
    signal,
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(options, resolve);
    req.on('error', (cause) => {
      if (signal.aborted)
        reject(new WebhookError('timeout', 'the receiver did not answer in time', { cause }));
      else reject(new WebhookError('network', `could not reach ${target.url.host}`, { cause }));
    });
    req.end(body);
  });
}
