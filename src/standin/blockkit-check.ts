// Shared helpers for the stand-in's own Block Kit validator: collect issues as Slack reports them
// (`[ERROR] <reason> [json-pointer:<path>]`), never throw. Lengths count Unicode code points, as Slack does.

export interface BlockKitIssue {
  /** JSON pointer of the offending value, e.g. `/view/title/text`. */
  pointer: string;
  /** The reason, worded like Slack's, e.g. `must be less than 25 characters`. */
  message: string;
}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Slack's `response_metadata.messages` wording for one issue. */
export const formatIssue = (issue: BlockKitIssue): string =>
  `[ERROR] ${issue.message} [json-pointer:${issue.pointer}]`;

const length = (s: string): number => [...s].length;

export interface TextRule {
  /** Maximum characters of `text`. */
  max: number;
  /** Only `plain_text` is accepted (titles, labels, button text, select options). */
  plain?: boolean;
  required?: boolean;
}

export class Checker {
  readonly issues: BlockKitIssue[] = [];

  fail(pointer: string, message: string): void {
    this.issues.push({ pointer, message });
  }

  /** The value must be an object; reports and returns undefined otherwise. */
  obj(value: unknown, pointer: string): Obj | undefined {
    if (isObj(value)) return value;
    this.fail(pointer, 'must be an object');
    return undefined;
  }

  /** An optional (or required) string field of at most `max` characters. */
  str(parent: Obj, key: string, pointer: string, max: number, required = false): string | undefined {
    const value = parent[key];
    if (value === undefined || value === null) {
      if (required) this.fail(pointer, `missing required field: ${key}`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.fail(`${pointer}/${key}`, 'must be a string');
      return undefined;
    }
    if (length(value) > max) this.fail(`${pointer}/${key}`, `must be less than ${max + 1} characters`);
    // A surrogate half without its partner: Slack cannot store or show such a string.
    if (!value.isWellFormed())
      this.fail(`${pointer}/${key}`, 'must be valid UTF-16 (a split surrogate pair)');
    return value;
  }

  bool(parent: Obj, key: string, pointer: string, required = false): void {
    const value = parent[key];
    if (value === undefined) {
      if (required) this.fail(pointer, `missing required field: ${key}`);
    } else if (typeof value !== 'boolean') this.fail(`${pointer}/${key}`, 'must be a boolean');
  }

  /** A text composition object: type plain_text|mrkdwn, non-empty text of at most `rule.max` characters. */
  text(parent: Obj, key: string, pointer: string, rule: TextRule): void {
    const value = parent[key];
    if (value === undefined || value === null) {
      if (rule.required) this.fail(pointer, `missing required field: ${key}`);
      return;
    }
    this.textObject(value, `${pointer}/${key}`, rule);
  }

  /** A text object found at `ptr` itself (e.g. an item of context elements). */
  textObject(value: unknown, ptr: string, rule: TextRule): void {
    const text = this.obj(value, ptr);
    if (!text) return;
    if (text.type !== 'plain_text' && text.type !== 'mrkdwn') {
      this.fail(`${ptr}/type`, `unsupported type: ${String(text.type)}`);
    } else if (rule.plain && text.type !== 'plain_text') {
      this.fail(`${ptr}/type`, 'must be plain_text');
    }
    const body = this.str(text, 'text', ptr, rule.max, true);
    if (body !== undefined && body.length === 0) this.fail(`${ptr}/text`, 'must be more than 0 characters');
    if (text.type === 'plain_text') this.bool(text, 'emoji', ptr);
  }

  /** An array field with at most `max` (and at least `min`, default 0) items; returns [] when absent. */
  list(
    parent: Obj,
    key: string,
    pointer: string,
    rule: { max: number; min?: number; required?: boolean },
  ): unknown[] {
    const value = parent[key];
    if (value === undefined) {
      if (rule.required) this.fail(pointer, `missing required field: ${key}`);
      return [];
    }
    const ptr = `${pointer}/${key}`;
    if (!Array.isArray(value)) {
      this.fail(ptr, 'must be an array');
      return [];
    }
    if (value.length > rule.max) this.fail(ptr, `must be less than ${rule.max + 1} items`);
    if (value.length < (rule.min ?? 0)) this.fail(ptr, `must provide at least ${rule.min ?? 0} items`);
    return value as unknown[];
  }
}
