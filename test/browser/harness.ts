// Browser tests: Debian's Chromium, driven by playwright-core, against the sandbox started the way a
// person starts it (`npm start` without Slack credentials: src/cli.ts as a child process), on its own
// Redis prefix and a free port. Every page request that would leave this machine is refused and recorded.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { runCli, waitForStdout, type CliRun } from '../system/child.js';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, no sandbox (CI runs as root), and nothing that phones home: this machine's network is closed,
 * and Chromium's background fetches would otherwise fail at every start. Playwright adds its own defaults.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Where each test's step screenshots go (git-ignored; CI keeps the folder as an artifact). */
export const SCREENSHOTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface Browser {
  context: BrowserContext;
  /** URLs the pages tried to fetch from anywhere but this machine (each one was refused). */
  offHost: string[];
  close(): Promise<void>;
}

/** One Chromium with a fresh, empty user data dir; fails loudly (never skips) when Chromium is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests drive Debian's Chromium. ` +
        'Install it with `apt-get update && apt-get install -y chromium` (.ci/run does this in CI).',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'elicit-relay-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 860 },
    locale: 'en-US',
  });
  context.setDefaultTimeout(30_000);
  const offHost: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  return {
    context,
    offHost,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The sandbox's first person: the one each browser test acts as. */
export const ADA = { id: 'U0ADA', name: 'Ada Lovelace' };

export interface SandboxOptions {
  /** `mcpServers` of the sandbox's config file; none by default. */
  mcpServers?: Record<string, unknown>;
  /** The command line after `cli.ts` (e.g. `sandbox --server …`); none by default. */
  args?: string[];
}

/** What a browser test file works with once its `beforeAll` has run. */
export interface SandboxPage {
  readonly browser: Browser;
  readonly sandbox: SandboxProcess;
  /** Ada's tab on the sandbox page. */
  readonly ada: Page;
}

/**
 * Chromium and a sandbox for the test file, with Ada's tab open: started before its tests (`options` is
 * called then, so it may start what the sandbox points at), stopped after them; after each test, no page may
 * have tried to reach another host.
 */
export function sandboxPage(
  options: () => SandboxOptions | Promise<SandboxOptions> = () => ({}),
): SandboxPage {
  let started: SandboxPage | undefined;
  let browser: Browser | undefined;
  let sandbox: SandboxProcess | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    sandbox = await startSandboxProcess(await options());
    started = { browser, sandbox, ada: await openAs(browser, sandbox.url, ADA.id, ADA.name) };
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });
  afterEach(() => {
    expect(browser?.offHost).toEqual([]);
  });
  const get = (): SandboxPage => {
    if (!started) throw new Error('the sandbox page is not started yet (use it inside a test)');
    return started;
  };
  return {
    get browser() {
      return get().browser;
    },
    get sandbox() {
      return get().sandbox;
    },
    get ada() {
      return get().ada;
    },
  };
}

/** Types a slash command into the message box and sends it with Enter. */
export async function typeCommand(page: Page, command: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(command);
  await box.press('Enter');
}

/** Runs `command` and returns the new message that contains `text` (the card, once it arrives). */
export async function runAndFind(page: Page, command: string, text: string): Promise<Locator> {
  const messages = page.getByRole('article').filter({ hasText: text });
  const before = await messages.count();
  await typeCommand(page, command);
  const card = messages.nth(before);
  await card.waitFor();
  return card;
}

export interface SandboxProcess {
  /** The address the sandbox printed, e.g. http://localhost:41234/ */
  url: string;
  run: CliRun;
  stop(): Promise<void>;
}

/**
 * Starts src/cli.ts with no Slack credentials (so: the sandbox), PORT=0, its own REDIS_PREFIX and a config
 * file holding `mcpServers` (none by default); resolves with the address it prints.
 */
export async function startSandboxProcess(opts: SandboxOptions = {}): Promise<SandboxProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-sandbox-'));
  const config = join(dir, 'elicit-relay.json');
  writeFileSync(config, JSON.stringify({ mcpServers: opts.mcpServers ?? {} }));
  const env = { REDIS_URL: redisUrl(), REDIS_PREFIX: uniquePrefix(), PORT: '0', ELICIT_RELAY_CONFIG: config };
  const run = runCli(env, opts.args);
  const [, url] = await waitForStdout(run, /open (http:\/\/\S+)/);
  return {
    url: url ?? '',
    run,
    stop: async () => {
      run.child.kill('SIGTERM');
      await run.done;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new tab on the sandbox page, switched to the person whose display name is `name`. */
export async function openAs(browser: Browser, url: string, personId: string, name: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.getByLabel('Person').selectOption(personId);
  await page
    .getByRole('listitem')
    .filter({ hasText: `${name} (you)` })
    .waitFor();
  return page;
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/** Saves numbered screenshots of `page` as test-artifacts/screenshots/<file>/<test>/<NN>-<step>.png. */
export function screenshots(file: string, test: string): (page: Page, step: string) => Promise<void> {
  const dir = join(SCREENSHOTS, file, slug(test));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let n = 0;
  return async (page, step) => {
    n += 1;
    await page.screenshot({ path: join(dir, `${String(n).padStart(2, '0')}-${slug(step)}.png`) });
  };
}
