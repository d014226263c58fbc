// Import-cycle check for src/ and blocks/ (part of `npm run check`). Only imports that exist at run time
// count: `import type` and `export type` are erased (verbatimModuleSyntax), so they cannot form a load cycle.
// Dynamic import() is lazy and is not followed. Exits 1 and prints each cycle found.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const roots = ['src', 'blocks'];

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return tsFilesUnder(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [resolve(path)] : [];
  });
}

/** Specifiers of the imports and re-exports in `file` that are loaded at run time. */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** The .ts file a relative specifier ('./x.js', './dir', '../y') names, or undefined for packages. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

const files = roots.flatMap(tsFilesUnder);
const graph = new Map(
  files.map((file) => [
    file,
    runtimeSpecifiers(file)
      .map((specifier) => resolveRelative(file, specifier))
      .filter((target): target is string => target !== undefined),
  ]),
);
const cycles = findCycles(graph);
for (const cycle of cycles) {
  process.stderr.write(`import cycle: ${cycle.map((file) => relative(process.cwd(), file)).join(' -> ')}\n`);
}
if (cycles.length > 0) process.exit(1);
