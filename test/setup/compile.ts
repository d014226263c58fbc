// Vitest global setup: compiles COMPILED_ENTRIES (see compiled.ts) with esbuild into a directory of this run's
// own, deleted when the run ends. Project files are bundled in; packages stay imports, resolved from the
// project's node_modules because the directory lies inside it.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { COMPILED_ENTRIES, ROOT } from './compiled.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(ROOT, 'node_modules', '.cache', 'elicit-relay-tests', randomBytes(4).toString('hex'));
  await build({
    entryPoints: COMPILED_ENTRIES.map((entry) => join(ROOT, entry)),
    outdir: dir,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    // 20.10: import attributes (`with { type: 'json' }`), which blocks/tool-meta-schema.ts uses, are kept.
    target: 'node20.10',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  project.provide('compiledDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    compiledDir: string;
  }
}
