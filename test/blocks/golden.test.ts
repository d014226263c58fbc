// Rendered Slack JSON pinned per fixture. Goldens are generated once by hand from golden-fixtures.ts and reviewed; never by
// this test: a fixture without a golden file, or a golden file without a fixture, fails.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenFixtures } from './golden-fixtures.js';
import { slackIssues } from './testing.js';

const dir = new URL('./__golden__/', import.meta.url);
const goldenNames = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length));

describe('golden Slack JSON', () => {
  it('has exactly one golden file per fixture', () => {
    expect(goldenNames.sort()).toEqual(Object.keys(goldenFixtures).sort());
  });

  it.each(Object.entries(goldenFixtures))('%s matches its golden file and Slack limits', (name, render) => {
    const rendered = render();
    const golden: unknown = JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'));
    expect(rendered).toEqual(golden);
    expect(slackIssues(rendered)).toEqual([]);
  });
});
