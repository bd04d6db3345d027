import type ts from 'typescript';
import type { IndexContext } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';

/** The index snapshot plus the compiler's view of its JS/TS files: what the script navigation works on. */
export interface ScriptContext extends IndexContext {
  readonly host: IndexLanguageServiceHost;
  /** The long-lived language service, created on first use. */
  service(): ts.LanguageService;
}

function isIdentifierCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\w$]/.test(character);
}

/** Offset of `name` as a whole word in the source file's 1-based `line`, or -1. */
export function positionOfName(sourceFile: ts.SourceFile, line: number, name: string): number {
  const lineStarts = sourceFile.getLineStarts();
  const start = lineStarts[line - 1];
  if (start === undefined) return -1;
  const end = lineStarts[line] ?? sourceFile.text.length;
  const text = sourceFile.text;
  for (
    let index = text.indexOf(name, start);
    index !== -1 && index < end;
    index = text.indexOf(name, index + 1)
  ) {
    if (!isIdentifierCharacter(text[index - 1]) && !isIdentifierCharacter(text[index + name.length]))
      return index;
  }
  return -1;
}
