// The host names that mean this machine, as a URL's `hostname` spells them: what the sandbox treats as local
// (a Redis it may stand in for, a page request a browser on this machine made).
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLoopbackHostname = (hostname: string): boolean => LOOPBACK_HOSTNAMES.has(hostname);
