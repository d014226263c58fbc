// Why a server's tools could not be listed (`/mcp tools`, `/mcp run`), in English and Chinese (same keys per
// language). The Slack side names the reason from the MCP side's typed errors (src/slack/listing-failures.ts), never
// from their English messages; a code follows as it is, in code: what the server itself answered (a JSON-RPC error
// code) marked as the server's.
import type { ServerFailureName } from './i18n-commands.js';
import type { Locale } from './i18n.js';

/** Why a listing failed: a connection's failure, or the sign-in the server needs did not complete. */
export type ListingFailureName = ServerFailureName | 'signIn';

export interface ListingText {
  /** The reason in the bot's own words. */
  failure: (failure: ListingFailureName) => string;
  /** The reason, with the code the bot's error carries (a sign-in's, e.g. `denied`), as an identifier. */
  failureCode: (failure: ListingFailureName, code: string) => string;
  /** The reason, with what the server itself answered (already in code), marked as the server's. */
  failureSaying: (failure: ListingFailureName, said: string) => string;
  /** A JSON-RPC error code the server answered with, for failureSaying. */
  rpcError: (code: number) => string;
}

const en: ListingText = {
  failure: (failure) =>
    ({
      connect: 'could not connect to the server',
      lost: 'the connection to the server was lost',
      timeout: 'the server did not answer in time',
      other: 'the request failed',
      signIn: 'signing in to the server did not complete',
    })[failure],
  failureCode: (failure, code) => `${en.failure(failure)} (\`${code}\`)`,
  failureSaying: (failure, said) => `${en.failure(failure)} (the server’s answer: ${said})`,
  rpcError: (code) => `JSON-RPC error \`${code}\``,
};

const zh: ListingText = {
  failure: (failure) =>
    ({
      connect: '无法连接到服务器',
      lost: '与服务器的连接已中断',
      timeout: '服务器未及时响应',
      other: '请求失败',
      signIn: '服务器登录未完成',
    })[failure],
  failureCode: (failure, code) => `${zh.failure(failure)}（\`${code}\`）`,
  failureSaying: (failure, said) => `${zh.failure(failure)}（服务器的原始答复：${said}）`,
  rpcError: (code) => `JSON-RPC 错误 \`${code}\``,
};

/** The table for `locale`; English when absent. */
export function listingText(locale?: Locale): ListingText {
  return locale === 'zh-CN' ? zh : en;
}

/** Both tables, for tests that compare them. */
export const LISTING_TEXT: Record<Locale, ListingText> = { en, 'zh-CN': zh };
