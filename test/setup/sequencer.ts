// The order test files start in. Vitest starts the files that took longest in the last run first, from its
// cache (node_modules/.vite/vitest); a fresh clone (CI) has none, and vitest then starts the largest files
// first, which are not the slow ones: a 90 s file of a few lines (test/conformance/auth.test.ts) started last
// and ran alone for its last minute. Without a cache, the tiers that start real processes (Redis topologies,
// faults, browsers, child replicas) start first, each tier's largest files first, so the short files fill the
// workers' ends.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Test folders whose files mostly take seconds to tens of seconds each, slowest tier first. */
const SLOW_TIERS = [
  'test/conformance/',
  'test/topology/',
  'test/faults/',
  'test/browser/',
  'test/system/',
  'test/lifecycle/',
  'test/sandbox/',
];

export class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (sorted.some((file) => this.cachedResults(file))) return sorted;
    // Array#sort is stable: within a tier, and among the other files, BaseSequencer's order stays.
    return sorted.sort((a, b) => this.rank(a) - this.rank(b));
  }

  private cachedResults(file: TestSpecification): boolean {
    const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
    return this.ctx.cache.getFileTestResults(key) !== undefined;
  }

  /** The file's tier's place in SLOW_TIERS; the other files after all of them. */
  private rank(file: TestSpecification): number {
    const path = relative(this.ctx.config.root, file.moduleId).split('\\').join('/');
    const tier = SLOW_TIERS.findIndex((prefix) => path.startsWith(prefix));
    return tier === -1 ? SLOW_TIERS.length : tier;
  }
}
