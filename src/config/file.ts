// The config file's text to a value: read (a path that cannot be read stops start-up naming it), refused when
// saved as UTF-16, and parsed as YAML, JSON or JSONC. VS Code and Cursor write `.json` files with `//` and `/* */`
// comments; YAML reads `{ // note "mcpServers": … }` as a key named "// note \"mcpServers\"", which loaded
// no server at all, so the comments of a file that starts with `{` are blanked before it is parsed. A server's
// command line, environment and headers keep the text written (written-text.ts).
import { ConfigError } from './error.js';
import { parseKeepingText } from './written-text.js';

type ReadFile = (path: string) => string | undefined;

/** The file's parsed value; undefined when there is no file. `key`: the setting that names the path. */
export function readConfigFile(
  key: string,
  path: string,
  readFile: ReadFile,
): { value: unknown } | undefined {
  let text: string | undefined;
  try {
    text = readFile(path);
  } catch (cause) {
    // EISDIR, EACCES…: the reader's error says which; its message is the operator's, not branched on.
    throw new ConfigError(
      key,
      `cannot read ${path} (${String(cause)})`,
      'Point it at a readable YAML or JSON file.',
      {
        cause,
      },
    );
  }
  return text === undefined ? undefined : { value: parseText(path, text) };
}

function parseText(path: string, text: string): unknown {
  // Read as UTF-8, a UTF-16 file (Windows Notepad's "Unicode") has a NUL beside every ASCII character.
  if (text.includes('\u0000')) {
    throw new ConfigError(
      path,
      'is not UTF-8 text (it looks saved as UTF-16)',
      'Save it as UTF-8 (in Notepad: Save as… › Encoding › UTF-8).',
    );
  }
  const source = text.replace(/^\uFEFF/, '');
  try {
    return parseKeepingText(path, /^\s*\{/.test(source) ? blankComments(source) : source);
  } catch (cause) {
    // A null where text is wanted, refused naming its key; anything else is yaml's syntax error.
    if (cause instanceof ConfigError) throw cause;
    throw new ConfigError(path, 'is not valid YAML or JSON', `Fix the syntax error: ${String(cause)}`, {
      cause,
    });
  }
}

/**
 * JSONC's comments replaced by spaces (line breaks kept, so a syntax error's line and column stay right). A `//`
 * starts a comment only outside strings and after a space, a line start or `{ [ ,`, never inside a value such as
 * a YAML flow map's unquoted `https://host`.
 */
export function blankComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const end = tokenEnd(text, i);
    const token = text.slice(i, end);
    out += token.startsWith('//') || token.startsWith('/*') ? token.replace(/[^\n]/g, ' ') : token;
    i = end;
  }
  return out;
}

/** Where the token starting at `i` ends: a string, a comment, or one other character. */
function tokenEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") return stringEnd(text, i, c);
  if (c === '/' && text[i + 1] === '*' && commentMayStart(text, i)) {
    const close = text.indexOf('*/', i + 2);
    return close === -1 ? text.length : close + 2;
  }
  if (c === '/' && text[i + 1] === '/' && commentMayStart(text, i)) {
    const lineEnd = text.indexOf('\n', i);
    return lineEnd === -1 ? text.length : lineEnd;
  }
  return i + 1;
}

function commentMayStart(text: string, i: number): boolean {
  return i === 0 || /[\s{[,]/.test(text[i - 1] ?? '');
}

/** The index after the closing quote (a backslash escapes in "…"; '' escapes in YAML's '…'). */
function stringEnd(text: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < text.length) {
    if (quote === '"' && text[j] === '\\') j += 2;
    else if (text[j] === quote && quote === "'" && text[j + 1] === "'") j += 2;
    else if (text[j] === quote) return j + 1;
    else j += 1;
  }
  return text.length;
}
