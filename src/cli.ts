#!/usr/bin/env node
// Entry point for `npm start`: read configuration once, refuse to start on a wrong setting, run until SIGTERM.
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { start } from './main.js';
import { StoreError } from './store/index.js';

const logger = createLogger();

function readFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function fail(message: string, exitCode: number): never {
  process.stderr.write(`elicit-relay: ${message}\n`);
  process.exit(exitCode);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ env: process.env, readFile });
  } catch (error) {
    if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`, 2);
    throw error;
  }
  const { botToken, signingSecret } = config.slack;
  if (config.slack.mode === 'sandbox' || !botToken || !signingSecret) {
    fail(
      'no Slack credentials. Set SLACK_BOT_TOKEN (xoxb-…) and SLACK_SIGNING_SECRET from your Slack app ' +
        '(see README, "Connect a Slack workspace"). The built-in sandbox is not available yet.',
      2,
    );
  }
  if (config.slack.mode === 'socket') {
    fail('Socket Mode (SLACK_APP_TOKEN) is not supported yet. Unset SLACK_APP_TOKEN and use HTTP mode.', 2);
  }
  try {
    const running = await start({ ...config, slack: { ...config.slack, botToken, signingSecret } }, logger);
    const stop = (signal: string): void => {
      logger.info({ signal }, 'shutting down');
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  } catch (error) {
    if (error instanceof StoreError) fail(error.message, 1);
    throw error;
  }
}

await main();
