// UI text of the App Home inbox, `/mcp` and tool results, in English and Chinese (same keys per language).
// Kept apart from i18n.ts (the card and form texts) so each surface's strings live with its owner.
// Strings that embed server text take it already escaped for mrkdwn.
import type { Locale } from './i18n.js';

type Count = (n: number) => string;
type ToolOn = (tool: string, server: string) => string;

/** A server's connection state in `/mcp servers` (src/mcp's ServerStatus states). */
export type ServerStateName = 'idle' | 'connected' | 'reconnecting' | 'failed';
/** The kind of a server's latest failure, as the bot names it; its causes follow in their own words. */
export type ServerFailureName = 'connect' | 'lost' | 'timeout' | 'other';

export interface CommandText {
  homeHeader: string;
  homeIntro: string;
  homeNothing: string;
  homeMore: Count;
  homeRecentHeader: string;
  homeNoRecent: string;
  /** `/mcp help`, one line per subcommand. */
  usage: string[];
  unknownSubcommand: (verb: string) => string;
  runNeedsTool: string;
  toolsNeedsServer: string;
  badJson: string;
  notObject: string;
  noServers: string;
  serversHeader: string;
  serverState: (state: ServerStateName) => string;
  /** Sessions people have open to a server. */
  openSessions: Count;
  serverFailure: (failure: ServerFailureName) => string;
  noSuchServer: (server: string) => string;
  noSuchTool: ToolOn;
  running: ToolOn;
  /** A replay of a `/mcp run` already taken (same trigger_id). */
  alreadyRunning: ToolOn;
  /** The run could not be recorded (Redis did not answer): nothing ran. */
  notStarted: ToolOn;
  toolsHeader: (server: string) => string;
  noTools: (server: string) => string;
  takesArguments: string;
  noArguments: string;
  moreTools: Count;
  toolsUnavailable: (server: string, reason: string) => string;
  runTitle: string;
  run: string;
  cancel: string;
  close: string;
  loading: ToolOn;
  argumentsLabel: string;
  argumentsHint: string;
  jsonInvalid: string;
  jsonNotObject: string;
  argumentsInvalid: (problems: string) => string;
  /** The tool's inputSchema is malformed (tool, server, what is wrong and where): nothing was sent to the server. */
  toolSchemaMalformed: (tool: string, server: string, problem: string) => string;
  /** The tool's definition, outside its inputSchema, breaks the MCP schema (where and what): nothing was sent. */
  toolDefinitionMalformed: (tool: string, server: string, problem: string) => string;
  /** `/mcp tools`: the tools listed that the MCP schema refused, left out (their names, already formatted). */
  refusedTools: (names: string) => string;
  runStarted: ToolOn;
  runStartedInThread: ToolOn;
  /** The channel message a run under `route: thread` starts (who, tool, server). */
  ranInThread: (who: string, tool: string, server: string) => string;
  /** Why a `route: thread` run came to the DM instead (the conversation, Slack's error code). */
  threadUnavailable: (channel: string, code: string) => string;
  finished: ToolOn;
  failed: ToolOn;
  noOutput: string;
  structuredHeader: string;
  attached: Count;
  attachFailed: string;
  urlRequired: ToolOn;
  openLink: string;
  retry: string;
  retrying: ToolOn;
  linksDoneRetrying: ToolOn;
  retryTaken: string;
  /** Said privately to someone who clicks Retry or Start again on another person's run (a thread's). */
  retryNotYours: (owner: string) => string;
  retryTooLong: string;
  /** Shown instead of Retry when an automation's call waits for the links (API calls). */
  retriesItself: string;
  roundExpired: string;
  startAgain: string;
  working: ToolOn;
  stillWorking: string;
  workDone: ToolOn;
  workFailed: ToolOn;
  /** The Cancel button of a person's run's "working…" message. */
  cancelRun: string;
  /** The "working…" message once its person cancelled the run (`who` a mention); no result follows. */
  workCancelled: (tool: string, server: string, who: string) => string;
  /** Said privately to someone who clicks Cancel on another person's run (a thread's). */
  cancelNotYours: (owner: string) => string;
  /** Said privately when Cancel is clicked on a run that already ended. */
  cancelEnded: string;
  /** Said privately to a second click of Cancel: the first one is under way. */
  cancelTaken: string;
  /** Said privately when the click could not be recorded (Redis failed): nothing was cancelled. */
  cancelUnrecorded: string;
}

const en: CommandText = {
  homeHeader: 'Waiting for your answer',
  homeIntro: 'Questions MCP servers are waiting for you to answer, soonest deadline first.',
  homeNothing: 'Nothing is waiting for you.',
  homeMore: (n) => `…and ${n} more, shown here once you answer some of the above.`,
  homeRecentHeader: 'Your recent answers',
  homeNoRecent: 'No answers yet.',
  usage: [
    '*Usage*',
    '`/mcp run &lt;server&gt; &lt;tool&gt; &lt;JSON arguments&gt;`: call a tool; its questions come to you here',
    '`/mcp run &lt;server&gt; &lt;tool&gt;`: fill in the tool’s arguments in a form, then call it',
    '`/mcp tools &lt;server&gt;`: list the tools of a server',
    '`/mcp servers`: list the configured MCP servers',
    '`/mcp connect &lt;server&gt;`, `/mcp disconnect &lt;server&gt;`: sign in to a server that needs it, or forget your sign-in',
    '`/mcp help`: this text',
  ],
  unknownSubcommand: (verb) => `Unknown subcommand \`${verb}\`.`,
  runNeedsTool: 'Name a server and a tool: `/mcp run &lt;server&gt; &lt;tool&gt; {…}`.',
  toolsNeedsServer: 'Name a server: `/mcp tools &lt;server&gt;`.',
  badJson: 'The arguments are not valid JSON.',
  notObject: 'The arguments must be a JSON object, e.g. `{"name": "x"}`.',
  noServers: 'No MCP servers are configured.',
  serversHeader: '*MCP servers*',
  serverState: (state) =>
    ({ idle: 'idle', connected: 'connected', reconnecting: 'reconnecting', failed: 'failed' })[state],
  openSessions: (n) => `${n} open session${n === 1 ? '' : 's'}`,
  serverFailure: (failure) =>
    ({
      connect: 'could not connect',
      lost: 'connection lost',
      timeout: 'no answer in time',
      other: 'request failed',
    })[failure],
  noSuchServer: (server) => `There is no MCP server named \`${server}\`. Try \`/mcp servers\`.`,
  noSuchTool: (tool, server) => `${server} has no tool named ${tool}. Try \`/mcp tools\`.`,
  running: (tool, server) => `Running ${tool} on ${server}…`,
  alreadyRunning: (tool, server) => `${tool} on ${server} is already running for this command.`,
  notStarted: (tool, server) =>
    `Could not start ${tool} on ${server}: the bot could not record the command. Nothing ran; please try again.`,
  toolsHeader: (server) => `Tools of ${server}`,
  noTools: (server) => `${server} offers no tools.`,
  takesArguments: 'takes arguments',
  noArguments: 'no arguments',
  moreTools: (n) => `…and ${n} more tools not shown here (Slack limits the size of a message).`,
  toolsUnavailable: (server, reason) => `Could not list the tools of ${server}: ${reason}`,
  runTitle: 'Run a tool',
  run: 'Run',
  cancel: 'Cancel',
  close: 'Close',
  loading: (tool, server) => `Loading ${tool} from ${server}…`,
  argumentsLabel: 'Arguments (JSON)',
  argumentsHint: 'This tool’s arguments cannot be shown as a form; write them as a JSON object.',
  jsonInvalid: 'This is not valid JSON.',
  jsonNotObject: 'The arguments must be a JSON object, e.g. {"name": "x"}.',
  argumentsInvalid: (problems) => `The arguments do not match the tool’s schema: ${problems}`,
  toolSchemaMalformed: (tool, server, problem) =>
    `${tool} on ${server} cannot run: its input schema is malformed (${problem}). ` +
    `Nothing was sent to ${server}; whoever maintains it needs to fix the tool.`,
  toolDefinitionMalformed: (tool, server, problem) =>
    `${tool} on ${server} cannot run: its definition is malformed (${problem}). ` +
    `Nothing was sent to ${server}; whoever maintains it needs to fix the tool.`,
  refusedTools: (names) => `Left out, their definitions are malformed (\`/mcp run\` says why): ${names}`,
  runStarted: (tool, server) => `Running ${tool} on ${server}. The result will come to your DM with the bot.`,
  runStartedInThread: (tool, server) =>
    `Running ${tool} on ${server}. Its questions and result follow in a thread where you ran the command.`,
  ranInThread: (who, tool, server) =>
    `${who} ran ${tool} on ${server}. Its questions and result follow in this thread.`,
  threadUnavailable: (channel, code) =>
    `I cannot post in ${channel} (\`${code}\`), so this run’s questions and result come here. ` +
    'To use that conversation, invite me with `/invite`.',
  finished: (tool, server) => `${tool} on ${server} finished`,
  failed: (tool, server) => `${tool} on ${server} failed`,
  noOutput: '(no output)',
  structuredHeader: 'Structured result',
  attached: (n) => `The output is long (${n} lines), so it is attached as a file.`,
  attachFailed: 'The full output could not be attached as a file; it is shortened here.',
  urlRequired: (tool, server) =>
    `${tool} on ${server} needs you to open these links first. Come back and retry once you are done.`,
  openLink: 'Open link',
  retry: 'Done, retry',
  retrying: (tool, server) => `Retrying ${tool} on ${server}…`,
  linksDoneRetrying: (tool, server) => `The server says every link is done; retrying ${tool} on ${server}…`,
  retryTaken: 'This call is already being retried.',
  retryNotYours: (owner) =>
    `Only ${owner} can run this call again from here. To run the tool yourself, use \`/mcp run\`.`,
  retryTooLong: 'The arguments are too long to retry from a button; run the command again when you are done.',
  retriesItself:
    'An automation is waiting for this call: it goes on by itself once the server says every link is done.',
  roundExpired:
    'The server waited too long for the answers, so it no longer accepts them. Start again to be asked anew.',
  startAgain: 'Start again',
  working: (tool, server) => `${tool} on ${server} is working…`,
  stillWorking: 'Working…',
  workDone: (tool, server) => `${tool} on ${server} is done; the result follows.`,
  workFailed: (tool, server) => `${tool} on ${server} stopped; the reason follows.`,
  cancelRun: 'Cancel',
  workCancelled: (tool, server, who) => `${tool} on ${server} was cancelled by ${who}.`,
  cancelNotYours: (owner) => `Only ${owner} can cancel this run.`,
  cancelEnded: 'This run has already ended; there is nothing to cancel.',
  cancelTaken: 'This run is already being cancelled.',
  cancelUnrecorded: 'The cancel could not be recorded, so the run goes on. Try again in a moment.',
};

const zh: CommandText = {
  homeHeader: '等待你回答的问题',
  homeIntro: 'MCP 服务器正在等待你回答的问题，截止时间最早的在前。',
  homeNothing: '目前没有等待你回答的问题。',
  homeMore: (n) => `……还有 ${n} 个问题，回答上面的问题后会显示在这里。`,
  homeRecentHeader: '你最近的回答',
  homeNoRecent: '还没有回答。',
  usage: [
    '*用法*',
    '`/mcp run &lt;服务器&gt; &lt;工具&gt; &lt;JSON 参数&gt;`：调用工具；它提出的问题会发到这里',
    '`/mcp run &lt;服务器&gt; &lt;工具&gt;`：先在表单中填写工具的参数，再调用它',
    '`/mcp tools &lt;服务器&gt;`：列出服务器的工具',
    '`/mcp servers`：列出已配置的 MCP 服务器',
    '`/mcp connect &lt;服务器&gt;`、`/mcp disconnect &lt;服务器&gt;`：登录需要登录的服务器，或忘记你的登录',
    '`/mcp help`：显示本说明',
  ],
  unknownSubcommand: (verb) => `未知的子命令 \`${verb}\`。`,
  runNeedsTool: '请指定服务器和工具：`/mcp run &lt;服务器&gt; &lt;工具&gt; {…}`。',
  toolsNeedsServer: '请指定服务器：`/mcp tools &lt;服务器&gt;`。',
  badJson: '参数不是有效的 JSON。',
  notObject: '参数必须是一个 JSON 对象，例如 `{"name": "x"}`。',
  noServers: '没有配置任何 MCP 服务器。',
  serversHeader: '*MCP 服务器*',
  serverState: (state) =>
    ({ idle: '空闲', connected: '已连接', reconnecting: '正在重新连接', failed: '失败' })[state],
  openSessions: (n) => `${n} 个会话已打开`,
  serverFailure: (failure) =>
    ({ connect: '无法连接', lost: '连接中断', timeout: '未及时响应', other: '请求失败' })[failure],
  noSuchServer: (server) => `没有名为 \`${server}\` 的 MCP 服务器。试试 \`/mcp servers\`。`,
  noSuchTool: (tool, server) => `${server} 没有名为 ${tool} 的工具。试试 \`/mcp tools\`。`,
  running: (tool, server) => `正在 ${server} 上运行 ${tool}……`,
  alreadyRunning: (tool, server) => `此命令已在 ${server} 上运行 ${tool}。`,
  notStarted: (tool, server) =>
    `无法在 ${server} 上启动 ${tool}：机器人无法记录此命令。没有运行任何内容，请重试。`,
  toolsHeader: (server) => `${server} 的工具`,
  noTools: (server) => `${server} 没有提供任何工具。`,
  takesArguments: '需要参数',
  noArguments: '无参数',
  moreTools: (n) => `……还有 ${n} 个工具未在此显示（Slack 限制了消息的大小）。`,
  toolsUnavailable: (server, reason) => `无法列出 ${server} 的工具：${reason}`,
  runTitle: '运行工具',
  run: '运行',
  cancel: '取消',
  close: '关闭',
  loading: (tool, server) => `正在从 ${server} 加载 ${tool}……`,
  argumentsLabel: '参数（JSON）',
  argumentsHint: '该工具的参数无法显示为表单；请以 JSON 对象的形式填写。',
  jsonInvalid: '这不是有效的 JSON。',
  jsonNotObject: '参数必须是一个 JSON 对象，例如 {"name": "x"}。',
  argumentsInvalid: (problems) => `参数不符合工具的模式：${problems}`,
  toolSchemaMalformed: (tool, server, problem) =>
    `无法运行 ${server} 上的 ${tool}：它的输入模式格式有误（${problem}）。` +
    `没有向 ${server} 发送任何内容；需要由它的维护者修复该工具。`,
  toolDefinitionMalformed: (tool, server, problem) =>
    `无法运行 ${server} 上的 ${tool}：它的定义格式有误（${problem}）。` +
    `没有向 ${server} 发送任何内容；需要由它的维护者修复该工具。`,
  refusedTools: (names) => `以下工具因定义格式有误未列出（\`/mcp run\` 会说明原因）：${names}`,
  runStarted: (tool, server) => `正在 ${server} 上运行 ${tool}。结果会发送到你与机器人的私信中。`,
  runStartedInThread: (tool, server) =>
    `正在 ${server} 上运行 ${tool}。它的问题和结果会在你运行命令的对话中的一个话题里继续。`,
  ranInThread: (who, tool, server) =>
    `${who} 在 ${server} 上运行了 ${tool}。它的问题和结果会在此话题中继续。`,
  threadUnavailable: (channel, code) =>
    `我无法在 ${channel} 中发消息（\`${code}\`），因此本次运行的问题和结果会发到这里。` +
    '如需使用该对话，请用 `/invite` 邀请我加入。',
  finished: (tool, server) => `${server} 上的 ${tool} 已完成`,
  failed: (tool, server) => `${server} 上的 ${tool} 失败`,
  noOutput: '（无输出）',
  structuredHeader: '结构化结果',
  attached: (n) => `输出较长（${n} 行），已作为文件附上。`,
  attachFailed: '完整输出无法作为文件附上；此处显示的是截短的内容。',
  urlRequired: (tool, server) => `${server} 上的 ${tool} 需要你先打开以下链接。完成后回来重试。`,
  openLink: '打开链接',
  retry: '已完成，重试',
  retrying: (tool, server) => `正在重试 ${server} 上的 ${tool}……`,
  linksDoneRetrying: (tool, server) => `服务器表示所有链接都已完成；正在重试 ${server} 上的 ${tool}……`,
  retryTaken: '该调用已经在重试了。',
  retryNotYours: (owner) => `只有 ${owner} 能在这里重新运行此调用。如需自己运行该工具，请使用 \`/mcp run\`。`,
  retryTooLong: '参数太长，无法通过按钮重试；完成后请重新运行该命令。',
  retriesItself: '有自动化流程在等待此调用：服务器确认所有链接都已完成后，它会自动继续。',
  roundExpired: '服务器等待回答的时间过长，已不再接受这些回答。请重新开始，再回答一次。',
  startAgain: '重新开始',
  working: (tool, server) => `${server} 上的 ${tool} 正在运行……`,
  stillWorking: '运行中……',
  workDone: (tool, server) => `${server} 上的 ${tool} 已完成；结果如下。`,
  workFailed: (tool, server) => `${server} 上的 ${tool} 已停止；原因如下。`,
  cancelRun: '取消',
  workCancelled: (tool, server, who) => `${who} 已取消 ${server} 上的 ${tool}。`,
  cancelNotYours: (owner) => `只有 ${owner} 能取消此运行。`,
  cancelEnded: '此运行已经结束，无需取消。',
  cancelTaken: '此运行已在取消中。',
  cancelUnrecorded: '无法记录取消操作，运行仍在继续。请稍后再试。',
};

/** The table for `locale`; English when absent. */
export function commandText(locale?: Locale): CommandText {
  return locale === 'zh-CN' ? zh : en;
}

/** Both tables, for tests that compare them. */
export const COMMAND_TEXT: Record<Locale, CommandText> = { en, 'zh-CN': zh };
