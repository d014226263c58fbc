// A Redis serving TLS only, with a CA and server certificate made by openssl at test time (the server's
// certificate names 127.0.0.1, so host name checks pass), and a second CA that signed nothing, for the refusal.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SENTINEL_MASTER, type SentinelAccess } from './sentinel-group.js';
import { startServer, type Access, type Server } from './servers.js';

const run = promisify(execFile);

export interface TlsRedis {
  server: Server;
  /** rediss://127.0.0.1:<port> */
  url: string;
  /** PEM file of the CA that signed the server's certificate. */
  caFile: string;
  /** PEM file of a CA that signed nothing here. */
  otherCaFile: string;
  stop(): Promise<void>;
}

async function makeCa(dir: string, name: string): Promise<void> {
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    join(dir, `${name}.key`),
    '-out',
    join(dir, `${name}.pem`),
  ]);
}

/** A CA made here, a server certificate it signed for 127.0.0.1, and a second CA that signed nothing. */
export interface Certs {
  ca: string;
  otherCa: string;
  cert: string;
  key: string;
}

export async function makeCerts(dir: string): Promise<Certs> {
  await makeCa(dir, 'ca');
  await makeCa(dir, 'other-ca');
  const key = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const cert = join(dir, 'server.pem');
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    key,
    '-out',
    csr,
  ]);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    join(dir, 'ca.pem'),
    '-CAkey',
    join(dir, 'ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    join(dir, 'san.ext'),
    '-out',
    cert,
  ]);
  return { ca: join(dir, 'ca.pem'), otherCa: join(dir, 'other-ca.pem'), cert, key };
}

/** redis-server arguments serving TLS only with `certs` (the port goes with --tls-port); clients need no cert. */
export function tlsArgs(certs: Certs): string[] {
  return [
    '--port',
    '0',
    '--tls-cert-file',
    certs.cert,
    '--tls-key-file',
    certs.key,
    '--tls-ca-cert-file',
    certs.ca,
    '--tls-auth-clients',
    'no',
  ];
}

export async function startTlsRedis(): Promise<TlsRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-tls-'));
  const certs = await makeCerts(dir);
  const server = await startServer(
    dir,
    [...tlsArgs(certs), '--save', '', '--maxmemory-policy', 'noeviction'],
    /Ready to accept connections/,
    undefined,
    '--tls-port',
  );
  return {
    server,
    url: `rediss://127.0.0.1:${server.port}`,
    caFile: certs.ca,
    otherCaFile: certs.otherCa,
    stop: async () => {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ACL user the secured topologies admit (the default user is off there). */
export const ACL_USER = { name: 'relay-bot', password: 'relay-secret' };

/**
 * Access to a topology serving TLS only (clients, replication and the cluster bus) with certificates from
 * `certs`, where only ACL_USER may log in (replicas too, as masteruser).
 */
export function secureAccess(certs: Certs): Access {
  const { name, password } = ACL_USER;
  return {
    serverArgs: [
      ...tlsArgs(certs),
      ...['--tls-replication', 'yes', '--tls-cluster', 'yes'],
      ...['--user', 'default', 'off', '--user', name, 'on', `>${password}`, '~*', '&*', '+@all'],
      ...['--masteruser', name, '--masterauth', password],
    ],
    portFlag: '--tls-port',
    cliArgs: ['--tls', '--cacert', certs.ca, '--user', name, '--pass', password, '--no-auth-warning'],
    env: { REDIS_TLS_CA_FILE: certs.ca, REDIS_USERNAME: name, REDIS_PASSWORD: password },
  };
}

/** The sentinels' own password (REDIS_SENTINEL_PASSWORD), distinct from the data nodes' ACL user. */
export const SENTINEL_PASSWORD = 'sentinel-secret';

/** Sentinels serving TLS only, reaching the master and replica over TLS as ACL_USER, with their own password. */
export function secureSentinelAccess(certs: Certs): SentinelAccess {
  return {
    serverArgs: [...tlsArgs(certs), '--tls-replication', 'yes', '--requirepass', SENTINEL_PASSWORD],
    configLines: [
      `sentinel auth-user ${SENTINEL_MASTER} ${ACL_USER.name}`,
      `sentinel auth-pass ${SENTINEL_MASTER} ${ACL_USER.password}`,
    ],
    cliArgs: ['--tls', '--cacert', certs.ca, '-a', SENTINEL_PASSWORD, '--no-auth-warning'],
    env: { REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD },
  };
}
