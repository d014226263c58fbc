// The bot's side of `elicit-relay` (src/cli.ts hands it everything but the API client's `ask` and `call`):
// read configuration once, refuse to start on a wrong setting, run until SIGTERM.
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  connectedConfig,
  loadConfig,
  logFormat,
  logLevel,
  type AppConfig,
  type ServerConfig,
} from './config/index.js';
import { createLogger, type Logger } from './logger.js';
import { start } from './main.js';
import { StartStoppedError } from './start-up.js';
import { type CliArgs, SANDBOX_USAGE, UsageError, parseCliArgs } from './sandbox/args.js';
import {
  TRACKER,
  sandboxServers,
  startSandbox,
  type RunningSandbox,
  type SandboxOptions,
} from './sandbox/index.js';
import {
  PrivateRedisError,
  isLoopbackRedis,
  redisServerOnPath,
  startPrivateRedis,
} from './sandbox/private-redis.js';
import { refusedDatabase } from './redis/diagnose.js';
import { StoreError } from './store/index.js';

const logger = newLogger();

/** LOG_LEVEL and LOG_FORMAT, refused like any other wrong setting before anything is logged. */
function newLogger(): Logger {
  try {
    return createLogger(logLevel(process.env), undefined, logFormat(process.env, process.stdout.isTTY));
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
}

/** A wrong setting: its key, the problem and the fix, and exit code 2. */
function refuse(error: ConfigError): never {
  fail(`invalid configuration: ${error.message}`, 2);
}

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

/** The command line: no arguments runs the bot; `sandbox [--server …]` runs the sandbox with more servers. */
function readArgs(argv: string[], config: AppConfig): CliArgs {
  const taken = [...sandboxServers().map((s) => s.name), TRACKER, ...config.servers.map((s) => s.name)];
  try {
    return parseCliArgs(argv, { cwd: process.cwd(), taken });
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}\n\n${SANDBOX_USAGE}`, 2);
    throw error;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return void process.stdout.write(`${SANDBOX_USAGE}\n`);
  let config;
  try {
    config = loadConfig({ env: process.env, readFile });
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  const database = await refusedDatabase(config.redis);
  if (database) fail(database.message, 1);
  const args = readArgs(argv, config);
  if (args.command === 'sandbox') return runSandbox(config, args.servers, 'elicit-relay sandbox');
  const connected = connectedConfig(config);
  if (!connected) return runSandbox(config, [], 'elicit-relay sandbox (no Slack credentials set)');
  try {
    // Listening before the start resolves: the bot logs that it is ready inside start(), and a SIGTERM
    // right after that line would otherwise meet Node's default action (exit at once, nothing stopped).
    // A signal before that ends the start-up itself (`starting`): start() stops what it started and rejects.
    const starting = new AbortController();
    const running = start(connected, logger, { signal: starting.signal });
    stopOnSignals(running, starting);
    await running;
  } catch (error) {
    // The signal's to exit on (stopOnSignals).
    if (error instanceof StartStoppedError) return;
    if (error instanceof StoreError) fail(error.message, 1);
    // Settings only Slack can check (the bot token, SLACK_API_URL's reachability: src/slack/app.ts).
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
}

/**
 * `sandbox`, no Slack credentials, or ELICIT_RELAY_MODE=sandbox: the bot against the built-in Slack
 * stand-in and its page, with the config's servers and those given with --server besides the examples.
 * When no Redis answers at a local address and a redis-server is on PATH, it runs on a private one.
 */
async function runSandbox(config: AppConfig, servers: ServerConfig[], banner: string): Promise<void> {
  if (!('url' in config.redis)) {
    fail('the sandbox runs on one Redis: set REDIS_URL instead of REDIS_CLUSTER_NODES or REDIS_SENTINELS', 2);
  }
  const { username, password, tls } = config.redis;
  const options: SandboxOptions = {
    port: config.port,
    redisUrl: config.redis.url,
    redisAccess: {
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(tls ? { tls } : {}),
    },
    redisPrefix: config.redis.prefix,
    logger,
    extraServers: [...config.servers, ...servers],
    api: config.api,
  };
  try {
    announce(banner, await startSandbox(options));
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    // A refusal (credentials, TLS) names its setting and fix; its cause stays unprinted: it may carry what was
    // sent (a password).
    if (error.code !== 'redis_unavailable') fail(error.message, 1);
    const hint = `Start one with \`docker compose up -d redis\` or your distribution's \`redis-server\`.`;
    const binary = isLoopbackRedis(options.redisUrl) ? redisServerOnPath(process.env.PATH ?? '') : undefined;
    if (binary === undefined) fail(`${error.message}\n${hint}`, 1);
    await runOnPrivateRedis(binary, options, banner).catch((failure: unknown) => {
      if (failure instanceof PrivateRedisError) fail(`${error.message}\n${failure.message}. ${hint}`, 1);
      throw failure;
    });
  }
}

/** The sandbox on its own redis-server (from PATH, a temporary folder, a free port), stopped with it. */
async function runOnPrivateRedis(binary: string, options: SandboxOptions, banner: string): Promise<void> {
  const redis = await startPrivateRedis(binary);
  process.stdout.write(
    `elicit-relay sandbox: no Redis answers at ${options.redisUrl}; started a private ${binary} at ${redis.url} (files in ${redis.dir}, removed on exit)\n`,
  );
  const sandbox = await startSandbox({ ...options, redisUrl: redis.url, redisAccess: {} }).catch(
    async (error: unknown) => {
      await redis.stop();
      throw error;
    },
  );
  announce(banner, {
    ...sandbox,
    stop: async () => {
      await sandbox.stop();
      await redis.stop();
    },
  });
}

function announce(banner: string, sandbox: RunningSandbox): void {
  stopOnSignals(Promise.resolve(sandbox));
  process.stdout.write(`${banner}: open ${sandbox.url}\n`);
  const token = sandbox.api.tokenFromEnv ? 'the one in ELICIT_RELAY_API_TOKEN' : sandbox.api.token;
  process.stdout.write(`elicit-relay sandbox: Automations API at ${sandbox.api.url}, token ${token}\n`);
  process.stdout.write(
    `elicit-relay sandbox: the tracker signs people in at the local authorization server ${sandbox.signIn.issuer}; ` +
      'their tokens are sealed in Redis with a sandbox key made for this run (not ELICIT_RELAY_TOKEN_KEY)\n',
  );
}

/**
 * How long after SIGTERM or SIGINT the process exits at the latest, in ms: 25 s, inside Kubernetes' default
 * 30 s between SIGTERM and SIGKILL (README, "On SIGTERM a replica stops inside…") with room for the exit itself.
 * A started bot's stop is bounded by its Lifecycle (20 s, then half a second per part left); this also bounds a
 * signal that comes while start-up still waits (on a Redis that never answers, on Slack), when there is no
 * running bot yet to stop.
 */
const EXIT_WITHIN_MS = 25_000;

function stopFailed(error: unknown): never {
  logger.error({ err: error }, 'shutdown failed');
  process.exit(1);
}

/** A start that ended: by the signal, exit; failed otherwise, main() reports it (or the sandbox). */
function stoppedStarting(error: unknown): void {
  if (!(error instanceof StartStoppedError)) return;
  if (error.code === 'stop_failed') stopFailed(error.cause);
  process.exit(0);
}

/**
 * SIGTERM and SIGINT stop what `running` starts, then exit (0, or 1 when stopping failed). During start-up
 * `starting` is aborted: start() then stops the parts it started and rejects with StartStoppedError (without
 * `starting`, the start is waited for and stopped once up). A start that fails otherwise has stopped its parts
 * and main() reports why. Either way the process exits within EXIT_WITHIN_MS of the signal.
 */
function stopOnSignals(running: Promise<{ stop(): Promise<void> }>, starting?: AbortController): void {
  const stop = (signal: string): void => {
    logger.info({ signal }, 'shutting down');
    // Referenced on purpose: a start-up that waits on nothing the event loop holds must still reach the bound.
    setTimeout(() => {
      logger.warn({ signal, waitedMs: EXIT_WITHIN_MS }, 'gave up waiting for the bot to stop');
      process.exit(1);
    }, EXIT_WITHIN_MS);
    starting?.abort();
    running.then((started) => started.stop().then(() => process.exit(0), stopFailed), stoppedStarting);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

await main();
