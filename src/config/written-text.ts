// A server's command line, environment, address and headers as written in the file. YAML reads an unquoted
// `VERSION: 1.10` as the number 1.1, `0123` as 123, `1e3` as 1000, `True` as true (and, in a `%YAML 1.1` file,
// `yes`/`on` as true and `N:` as the key false); turned back into a string that is text nobody wrote. So a scalar
// that YAML reads as anything but a string keeps its source text where the config wants text, and its value
// everywhere else (`disabled: true`, `startupTimeout: 30000`). A null there (`~`, `null`, nothing) has no text to
// keep: it is refused naming the file, the line and the key. Keys are names, so each keeps its source text. The
// bot's own text settings (a server's `auth`, an API client's token: text-settings.ts) keep their source text too.
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import { ConfigError } from './error.js';
import { isRecord } from './mapping.js';
import { settingWantsText } from './text-settings.js';

/** A scalar YAML read as a number, boolean, null or date, with the text it was written as. */
class ReadAsValue {
  constructor(
    readonly value: unknown,
    readonly source: string,
    /** 1-based, for the refusal of a null. */
    readonly line: number,
  ) {}
}

/** The server fields whose value is text (transport.ts); `args`, `env` and `headers` hold text one level down. */
const TEXT_FIELDS = new Set(['command', 'cwd', 'url', 'serverUrl']);
const TEXT_HOLDERS = new Set(['args', 'env', 'headers']);

type Path = readonly (string | number)[];

/** `text` parsed as YAML (JSON included), each scalar in a text position as written. `file`: for refusals. */
export function parseKeepingText(file: string, text: string): unknown {
  const lineCounter = new LineCounter();
  // merge: `<<: *base` as YAML 1.1 and Docker Compose files use it.
  const doc = parseDocument(text, { merge: true, lineCounter });
  // As yaml's parse(): warnings to the process's, the first error thrown.
  for (const warning of doc.warnings) process.emitWarning(warning);
  const [error] = doc.errors;
  if (error) throw error;
  markReadAsValue(doc, lineCounter);
  return settle(file, doc.toJS(), [], new Map());
}

function markReadAsValue(doc: Document, lineCounter: LineCounter): void {
  visit(doc, {
    Scalar(key, node) {
      // The merge key `<<` is a symbol: left alone.
      if (typeof node.value === 'string' || typeof node.value === 'symbol' || node.source === undefined)
        return;
      if (key === 'key') node.value = node.source;
      else {
        const line = node.range ? lineCounter.linePos(node.range[0]).line : 0;
        node.value = new ReadAsValue(node.value, node.source, line);
      }
    },
  });
}

/**
 * The parsed value with each ReadAsValue replaced: by its source text in a text position, by its value elsewhere.
 * `copies`: the copy of each list and mapping made so far, so an alias is copied once and a cycle ends.
 */
function settle(file: string, value: unknown, path: Path, copies: Map<object, unknown>): unknown {
  if (value instanceof ReadAsValue) {
    if (wantsText(path)) return sourceText(file, value, path);
    // A null there is left to the setting's reader, which names what is missing.
    return settingWantsText(path) && value.value !== null ? value.source : value.value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const copied = copies.get(value);
  if (copied !== undefined) return copied;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    copies.set(value, list);
    value.forEach((item, i) => list.push(settle(file, item, [...path, i], copies)));
    return list;
  }
  // A mapping as yaml's toJS makes it; anything else (a `!!set` of a YAML 1.1 file) is left as it is.
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const mapping: Record<string, unknown> = {};
  copies.set(value, mapping);
  for (const [name, item] of Object.entries(value)) {
    // defineProperty: a key named `__proto__` stays a key, as yaml's toJS keeps it.
    Object.defineProperty(mapping, name, {
      value: settle(file, item, [...path, name], copies),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return mapping;
}

/** `mcpServers.<name>.command`, `.args[i]`, `.env.<NAME>`, `.headers.<Name>`… (VS Code's `servers` alike). */
function wantsText(path: Path): boolean {
  const [section, , field] = path;
  if ((section !== 'mcpServers' && section !== 'servers') || typeof field !== 'string') return false;
  if (path.length === 3) return TEXT_FIELDS.has(field);
  return path.length === 4 && TEXT_HOLDERS.has(field);
}

function sourceText(file: string, scalar: ReadAsValue, path: Path): string {
  if (scalar.value !== null) return scalar.source;
  const last = path.at(-1);
  const name = typeof last === 'number' ? '' : `${String(last)}: `;
  const empty = `${name}"" for an empty value`;
  // Docker Compose reads `NAME:` with no value as "the host's NAME": here that is written ${NAME}.
  const passOn =
    path[2] === 'env' ? `, or ${name}"\${${String(last)}}" for the bot's own ${String(last)}` : '';
  throw new ConfigError(
    keyOf(path),
    `is ${scalar.source || 'empty'} in ${file} (line ${scalar.line}), which YAML reads as no value, not as text`,
    `${scalar.source ? `Quote it: ${name}"${scalar.source}", or write ` : 'Write '}${empty}${passOn}.`,
  );
}

/** `mcpServers.files.env.VERSION`, `mcpServers.files.args[1]`: as transport.ts names the keys. */
function keyOf(path: Path): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}
