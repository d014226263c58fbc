// A Redis serving TLS only, with a CA and server certificate made by openssl at test time (the server's
// certificate names 127.0.0.1, so host name checks pass), and a second CA that signed nothing, for the refusal.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../system/child.js';
import { startServer, type Server } from './servers.js';

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

export async function startTlsRedis(): Promise<TlsRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-tls-'));
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
  const port = await freePort();
  const server = await startServer(
    dir,
    [
      '--port',
      '0',
      '--tls-cert-file',
      cert,
      '--tls-key-file',
      key,
      '--tls-ca-cert-file',
      join(dir, 'ca.pem'),
      '--tls-auth-clients',
      'no',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ],
    /Ready to accept connections/,
    port,
    '--tls-port',
  );
  return {
    server,
    url: `rediss://127.0.0.1:${port}`,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    stop: async () => {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
