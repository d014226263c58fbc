// A stdio server's `command` is one program, started without a shell, as Claude Desktop and VS Code start it:
// `"command": "npx -y foo"` loads, then fails every connect with ENOENT (there is no program named
// "npx -y foo"). Split on spaces it might run, but a program's own path may hold spaces ("/opt/My Tools/server"),
// so a command with whitespace stops start-up, naming the fix, unless a file of that name exists.
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import { ConfigError } from './error.js';

/** Whether a file exists at `path` (a folder is not one). */
export type IsFile = (path: string) => boolean;

export interface ProgramLookup {
  isFile: IsFile;
  /** The server's `cwd`, against which a relative path is started; default the bot's own. */
  cwd?: string;
  /** The PATH a bare name is looked up on: the server's `env.PATH`, else the bot's. */
  path?: string;
}

/** Refuses a `command` holding whitespace that names no file (a whole command line in one string). */
export function checkProgram(
  key: string,
  command: string,
  args: readonly string[],
  lookup: ProgramLookup,
): void {
  if (!/\s/.test(command) || programExists(command, lookup)) return;
  const [program = command, ...rest] = command.trim().split(/\s+/);
  const fixed = `"command": ${JSON.stringify(program)}, "args": ${JSON.stringify([...rest, ...args])}`;
  throw new ConfigError(
    key,
    `${JSON.stringify(command)} is a whole command line, and no program has that name (the bot starts \`command\` as one program, without a shell, as Claude Desktop and VS Code do)`,
    `Put the program in \`command\` and each argument in \`args\`: ${fixed}. A program whose path holds spaces is written whole in \`command\`.`,
  );
}

function programExists(command: string, { isFile, cwd, path }: ProgramLookup): boolean {
  if (isAbsolute(command)) return isFile(command);
  // A path with a folder in it is started from the server's `cwd`; a bare name is looked up on PATH.
  if (command.includes('/') || command.includes(sep)) return isFile(resolve(cwd ?? '.', command));
  return (path ?? '')
    .split(delimiter)
    .filter((folder) => folder !== '')
    .some((folder) => isFile(join(folder, command)));
}
