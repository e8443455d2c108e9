// The type check and ESLint in one pass (ADR 0051). TypeScript builds the solution's projects as `tsc -b` does,
// and ESLint's typed rules (floating and misused promises) read the programs it built, their types already checked,
// instead of building and checking every project again through a project service of their own.
//   node scripts/check-code.mjs          type check, then ESLint on every file
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// 1. The type check: the solution (tsconfig.json's references) built as tsc -b builds it, keeping each project's program.
const programs = new Map();
let typeErrors = 0;
const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
const report = (diagnostic) => console.error(ts.formatDiagnostic(diagnostic, formatHost).trimEnd());
const host = ts.createSolutionBuilderHost(ts.sys, undefined, (diagnostic) => {
  if (diagnostic.category === ts.DiagnosticCategory.Error) typeErrors++;
  report(diagnostic);
});
host.afterProgramEmitAndDiagnostics = (built) => {
  const program = built.getProgram();
  programs.set(path.resolve(program.getCompilerOptions().configFilePath), program);
};
const status = ts.createSolutionBuilder(host, ['tsconfig.json'], {}).build();
console.log(
  status === ts.ExitStatus.Success
    ? `Types: no errors (${programs.size} projects checked, the others unchanged since their last check).`
    : `Types: ${typeErrors} errors.`,
);

// A project left unbuilt (unchanged since its last check) gets a program of its own for ESLint, its types read as its
// rules ask for them. Every project of the solution is visited, through the references of each.
const seen = new Set();
const visit = (config) => {
  if (seen.has(config)) return;
  seen.add(config);
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: report });
  if (!parsed) return;
  for (const reference of parsed.projectReferences ?? []) visit(ts.resolveProjectReferencePath(reference));
  if (!programs.has(config) && parsed.fileNames.length > 0)
    programs.set(config, ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences }));
};
visit(path.resolve('tsconfig.json'));

// 2. ESLint on every file, its typed rules on those programs.
const eslint = new ESLint({
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parserOptions: { projectService: false, programs: [...programs.values()] } } }],
});
const results = await eslint.lintFiles(['.']);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) console.log(formatted);
const lintErrors = results.reduce((sum, r) => sum + r.errorCount, 0);
console.log(lintErrors ? `ESLint: ${lintErrors} errors.` : `ESLint: no errors in ${results.length} files.`);
process.exit(status === ts.ExitStatus.Success && lintErrors === 0 ? 0 : 1);
