// The numbers of a person's JSON that JSON.parse would round. A JSON number is decimal text; the bot reads it as
// a double and the server receives the decimal JSON.stringify writes that double as, so 9007199254740993 would
// reach it as 9007199254740992, 0.1000000000000000001 as 0.1, 1e-400 as 0 and 1e400 as null. JSON.parse shows no
// token's text (Node 20's revivers have no `context.source`), so the text is walked here, each number token
// named by its JSON Pointer (RFC 6901) and compared with its double by carriesExactly, as the form's number
// fields are. Pure.
import { carriesExactly } from './decimals.js';
import { pointerToken } from './json-pointer.js';

/**
 * Why a number cannot be sent as typed. `integerRange`: a whole number a double skips (past ±2^53).
 * `tooLarge`: past the largest double. `tooSmall`: nearer 0 than the smallest normal double (becomes 0, or keeps
 * only a few digits). `digits`: more significant digits than a double keeps.
 */
export type InexactKind = 'integerRange' | 'tooLarge' | 'tooSmall' | 'digits';

/** A number token whose double is another number: where (a JSON Pointer), as typed, and why. */
export interface InexactNumber {
  path: string;
  text: string;
  kind: InexactKind;
}

/** Where the walk is: inside an object (the key of the member being read) or an array (the item's index). */
type Frame = { inObject: true; key: string; awaitingKey: boolean } | { inObject: false; index: number };

/** A JSON number token (RFC 8259 §6), from where the walk stands. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A string token's rest after its opening quote: its characters, escapes included, and its closing quote. */
const STRING_REST = /(?:[^"\\]|\\.)*"/y;
/** Smallest normal double, 2^-1022: below it a double keeps fewer than 15 digits. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * The numbers of `json` that do not reach the server as typed, in text order; [] when all do (1.50, 1e3, -0,
 * 0.30000000000000004 do). `json` is text JSON.parse has read: anything else gives no meaningful answer.
 */
export function inexactNumbers(json: string): InexactNumber[] {
  const found: InexactNumber[] = [];
  const stack: Frame[] = [];
  let at = 0;
  while (at < json.length) {
    const c = json.charAt(at);
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(json, at);
      if (top?.inObject === true && top.awaitingKey) {
        const key: unknown = JSON.parse(json.slice(at, end));
        top.key = typeof key === 'string' ? key : '';
        top.awaitingKey = false;
      }
      at = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = at;
      const text = NUMBER.exec(json)?.[0] ?? c;
      const kind = inexactKind(text);
      if (kind !== undefined) found.push({ path: pointerOf(stack), text, kind });
      at += text.length;
    } else {
      step(c, stack);
      at += 1;
    }
  }
  return found;
}

/** Past the string token opening at `at` (its quote). */
function stringEnd(json: string, at: number): number {
  STRING_REST.lastIndex = at + 1;
  return STRING_REST.test(json) ? STRING_REST.lastIndex : json.length;
}

/** The walk past a structural character; whitespace, `:` and the letters of true, false and null change nothing. */
function step(c: string, stack: Frame[]): void {
  const top = stack[stack.length - 1];
  if (c === '{') stack.push({ inObject: true, key: '', awaitingKey: true });
  else if (c === '[') stack.push({ inObject: false, index: 0 });
  else if (c === '}' || c === ']') stack.pop();
  else if (c === ',' && top !== undefined) {
    if (top.inObject) top.awaitingKey = true;
    else top.index += 1;
  }
}

/** The JSON Pointer of the value being read: each key with `~` and `/` written `~0` and `~1` (RFC 6901 §3). */
function pointerOf(stack: readonly Frame[]): string {
  return stack.map((frame) => `/${frame.inObject ? pointerToken(frame.key) : frame.index}`).join('');
}

/** Why `text` (a JSON number) is not sent as typed; undefined when its double is the very number. */
export function inexactKind(text: string): InexactKind | undefined {
  const n = Number(text);
  if (carriesExactly(text, n)) return undefined;
  // Typed as a whole number (an id, a count): said as the form says it of an integer field.
  if (/^-?\d+$/.test(text)) return 'integerRange';
  if (!Number.isFinite(n)) return 'tooLarge';
  return Math.abs(n) < MIN_NORMAL ? 'tooSmall' : 'digits';
}
