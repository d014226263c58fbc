// Which fields look like they ask for a secret. The MCP spec forbids servers to request sensitive
// information in form mode, so the modal warns about these and a deployment policy may refuse the request.
import type { FormSpec } from './spec.js';

// Matched against words: camelCase, snake_case, kebab-case and dotted names are split first.
const SECRET_WORDS = [
  /\bpass(?:word|code|phrase)s?\b/,
  /\b(?:pwd|passwd)\b/,
  /\bpin\s*(?:code|number)\b/,
  // "token" alone is a secret, "max tokens" (a model setting) is not.
  /(?<!\b(?:max|min|num|number of|output|input|total)\s)\btokens?\b/,
  /\bapi\s*keys?\b/,
  /\bsecrets?\b/,
  /\bprivate\s*keys?\b/,
  /\b(?:credit|debit)\s*card\b/,
  /\bcard\s*(?:number|no)\b/,
  /\b(?:cvv|cvc|cvv2|ssn|otp|2fa|mfa)\b/,
  /\bsocial\s*security\b/,
  /\bseed\s*phrase\b/,
  /密码|口令|令牌|密钥|私钥|卡号|验证码|身份证号/,
];

/** True when any of the texts (property name, title, description) looks like it asks for a secret. */
export function looksSecret(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => {
    if (text === undefined) return false;
    const words = text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_.\-/]+/g, ' ')
      .toLowerCase();
    return SECRET_WORDS.some((pattern) => pattern.test(words));
  });
}

/** Property names of the fields that look like secrets, in form order (empty when none do). */
export function secretFields(spec: FormSpec): string[] {
  return spec.fields.filter((f) => f.secret === true).map((f) => f.name);
}
