// `RipgrepPrefilter` asks ripgrep the same questions with its own patterns: keep the two in step.

/** A line that starts an ES module statement (`import x`, `export`), not a dynamic `import(...)`. */
const moduleStatement = /^[ \t]*(?:import|export)\b(?![ \t]*\()/m;
/** A module's additions to the global scope or to another module: `declare global`, `declare module 'name'`. */
const ambientDeclaration = /\bdeclare[ \t]+(?:global\b|module[ \t]*['"])/;

/**
 * Whether a JS/TS file may declare names outside its own module scope: a script without ES
 * module statements (its top-level declarations are globals; a CommonJS file counts too, which
 * only errs on the safe side), a `declare global`, a `declare module 'name'`, a triple-slash
 * reference. A program made of a question's files plus every such file resolves
 * names in those files as the whole repository's program does.
 */
export function mayDeclareGlobals(text: string): boolean {
  return !moduleStatement.test(text) || ambientDeclaration.test(text) || text.includes('/// <reference');
}
