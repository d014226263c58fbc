// Runs the official MCP conformance scenarios (client mode) against the relay's real MCP client code.
//   npx tsx scripts/conformance.ts [scenario ...]      all 23 of 0.1.13 by default; exit 1 if any check fails or warns
//   npx -y -p node@22 node --import tsx scripts/conformance.ts --next [scenario ...]    all 48 of 0.2.0-alpha.12
// The CLI (@modelcontextprotocol/conformance 0.1.13, the last release that starts on Node 20, or 0.2.0-alpha.12,
// which needs Node 22) starts a scenario server, runs scripts/conformance-client.ts with the server URL, and
// judges what it saw.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

/** The 19 auth/* client scenarios: the bot's sign-in (src/mcp/auth) through scripts/conformance-auth.ts. */
export const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/resource-mismatch',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
];

/** Every client scenario of 0.2.0-alpha.12 (`conformance list --client`), in its order. */
export const NEXT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'request-metadata',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/**
 * The two pinned releases of the conformance CLI: 0.1.13 (`current`, starts on Node 20) and 0.2.0-alpha.12
 * (`next`, the devDependency alias conformance-next: the first with sep-2322-client-request-state; it needs
 * Node 22, so it runs in `npm run test:node22`).
 */
export type ConformanceRelease = 'current' | 'next';

const cliPaths: Record<ConformanceRelease, string> = {
  current: join(repoRoot, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  next: join(repoRoot, 'node_modules/conformance-next/dist/index.js'),
};
const clientPath = join(repoRoot, 'scripts/conformance-client.ts');

export interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  /** Exit code of the conformance CLI (non-zero when a check failed or warned, or the client failed). */
  exitCode: number;
  /** The judged checks (INFO entries, which only log HTTP traffic, are left out). */
  checks: Check[];
  passed: boolean;
  /** The CLI's own stderr report, for diagnosing a failure. */
  output: string;
}

function runCli(release: ConformanceRelease, args: string[]): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPaths[release], ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? 1, output }));
  });
}

export interface ScenarioOptions {
  /** Which CLI judges the scenario (default `current`). */
  release?: ConformanceRelease;
  /** The CLI's limit for the client process, in ms (default 20 s). */
  timeoutMs?: number;
  /** node's arguments for the client: its source through tsx unless a caller has it compiled (the tests do). */
  clientArgs?: string[];
}

/** Runs one scenario with the client on this process's Node (the CLI runs on it too). */
export async function runScenario(scenario: string, options: ScenarioOptions = {}): Promise<ScenarioResult> {
  const { release = 'current', timeoutMs = 20_000, clientArgs = ['--import', 'tsx', clientPath] } = options;
  const outDir = await mkdtemp(join(tmpdir(), 'elicit-relay-conformance-'));
  try {
    // The CLI splits --command on spaces and appends the server URL; these paths contain none.
    const command = [process.execPath, ...clientArgs].join(' ');
    const args = ['client', '--command', command, '--scenario', scenario, '--timeout', String(timeoutMs)];
    const { exitCode, output } = await runCli(release, [...args, '-o', outDir]);
    const checks = await readChecks(outDir);
    const judged = checks.filter((check) => check.status !== 'INFO');
    const passed =
      exitCode === 0 &&
      judged.length > 0 &&
      judged.every((check) => check.status === 'SUCCESS' || check.status === 'SKIPPED');
    return { scenario, exitCode, checks: judged, passed, output };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/**
 * The CLI writes `<outDir>/<scenario>-<timestamp>/checks.json` (so `auth/x` lands one folder deeper);
 * none when it crashed before judging.
 */
async function readChecks(outDir: string): Promise<Check[]> {
  const files = await readdir(outDir, { recursive: true });
  const checksFile = files.find((file) => file.endsWith('checks.json'));
  if (checksFile === undefined) return [];
  return JSON.parse(await readFile(join(outDir, checksFile), 'utf8')) as Check[];
}

/** Scenarios run one after another: sse-retry measures reconnection timing and wants a quiet machine. */
export async function runConformance(
  scenarios: string[],
  release: ConformanceRelease = 'current',
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) results.push(await runScenario(scenario, { release }));
  return results;
}

export function summarize(results: ScenarioResult[]): string {
  const lines = results.map((result) => {
    const ok = result.checks.filter((check) => check.status === 'SUCCESS').length;
    const head = `${result.passed ? 'PASS' : 'FAIL'} ${result.scenario}: ${ok}/${result.checks.length} checks`;
    const bad = result.checks
      .filter((check) => check.status !== 'SUCCESS')
      .map((check) => `    ${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
    return [head, ...bad].join('\n');
  });
  const failed = results.filter((result) => !result.passed).length;
  lines.push(
    failed === 0
      ? `all ${results.length} scenarios passed`
      : `${failed} of ${results.length} scenarios failed`,
  );
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const release: ConformanceRelease = process.argv.includes('--next') ? 'next' : 'current';
  const requested = process.argv.slice(2).filter((arg) => arg !== '--next');
  const all = release === 'next' ? NEXT_SCENARIOS : [...SCENARIOS, ...AUTH_SCENARIOS];
  const results = await runConformance(requested.length > 0 ? requested : all, release);
  for (const result of results.filter((r) => !r.passed)) process.stderr.write(`\n${result.output}\n`);
  process.stdout.write(`${summarize(results)}\n`);
  process.exitCode = results.every((result) => result.passed) ? 0 : 1;
}
