// The sandbox's workspace: who can switch in on the page, and the example MCP servers it runs by default.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SLACK_POLICY, type ServerConfig, type SlackPolicy } from '../config/index.js';
import type { StandinUser } from '../standin/index.js';

/** Two people: one English, one with a zh-CN locale (the bot answers them in Chinese). */
export const SANDBOX_PEOPLE: Readonly<Record<string, StandinUser>> = {
  U0ADA: { name: 'ada', realName: 'Ada Lovelace', locale: 'en-US', tz: 'Europe/London' },
  U0MEI: { name: 'mei', realName: '王美 Mei', locale: 'zh-CN', tz: 'Asia/Shanghai' },
};

/** Commands the page offers as one-click suggestions. */
export const SUGGESTED_COMMANDS = [
  '/mcp run forms basics {}',
  '/mcp run forms choices {}',
  '/mcp run forms sign_in {}',
  '/mcp run approvals deploy {"service": "web", "env": "production"}',
  '/mcp run slow ask {}',
  '/mcp run tracker hello {}',
  '/mcp servers',
];

/** How long a person has to answer the `slow` server, in ms (short, to show the timeout). */
export const SLOW_TIMEOUT_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

// This file runs as src/sandbox/people.ts (tsx) or dist/src/sandbox/people.js (compiled); the examples sit
// at the same relative place in both trees: examples/*.ts beside src, dist/examples/*.js beside dist/src.
const fromSource = import.meta.url.endsWith('.ts');

/** How to run examples/<name> with this Node: its command line, and (from source) the folder to run it in. */
export function exampleCommand(name: string): { command: string; args: string[]; cwd?: string } {
  const file = fileURLToPath(new URL(`../../examples/${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  // tsx is resolved from the child's working directory, so run it at the repository root.
  const cwd = fileURLToPath(new URL('../../', import.meta.url));
  const args = fromSource ? ['--import', 'tsx', file] : [file];
  return { command: process.execPath, args, ...(fromSource && { cwd }) };
}

function exampleServer(name: string, timeoutMs: number, slack?: SlackPolicy): ServerConfig {
  return {
    name,
    transport: { kind: 'stdio', env: {}, ...exampleCommand(name) },
    elicitationTimeoutMs: timeoutMs,
    elicitationMode: 'form',
    ...(slack && { slack }),
  };
}

/** The example servers shipped in examples/: forms, approvals and slow. */
export function sandboxServers(): ServerConfig[] {
  return [
    exampleServer('forms', DEFAULT_TIMEOUT_MS),
    exampleServer('approvals', DEFAULT_TIMEOUT_MS),
    // A nudge at half time, so the slow example shows a reminder before its timeout.
    exampleServer('slow', SLOW_TIMEOUT_MS, { ...DEFAULT_SLACK_POLICY, reminders: [{ atFraction: 0.5 }] }),
  ];
}
