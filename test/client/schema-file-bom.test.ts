// `elicit-relay ask --schema <file>` with a file as Windows tools write it: Notepad and PowerShell's Out-File or
// Set-Content -Encoding utf8 start a UTF-8 file with a byte order mark, which reading it as UTF-8 keeps and
// JSON.parse refuses. RFC 8259 §8.1 lets a parser ignore it: the schema is read as written, not a usage error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseClientArgs } from '../../src/client/index.js';

const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { ELICIT_RELAY_URL: 'https://relay.example.com', ELICIT_RELAY_API_TOKEN: 'tok' };
/** As src/client/index.ts reads it. */
const sources = { env, readFile: (path: string) => readFileSync(path, 'utf8') };

describe('elicit-relay ask --schema <file>', () => {
  it('reads a UTF-8 file that starts with a byte order mark as the schema it holds', () => {
    const schema = { type: 'object', properties: { why: { type: 'string', title: '原因' } } };
    const file = join(dir, 'schema.json');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(schema))]),
    );
    const parsed = parseClientArgs(['ask', '--message', 'Why?', '--to', 'U1', '--schema', file], sources);
    expect(parsed).toMatchObject({ command: 'ask', requestedSchema: schema });
  });
});
