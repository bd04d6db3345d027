import type ts from 'typescript';
import type { IndexContext } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';

/** The index snapshot plus the compiler's view of its JS/TS files: what the script navigation works on. */
export interface ScriptContext extends IndexContext {
  readonly host: IndexLanguageServiceHost;
  /** The long-lived language service, created on first use. */
  service(): ts.LanguageService;
  /** The JS/TS files whose text may hold `name`, in path order: where its references can be. */
  scriptFilesMentioning(name: string): readonly string[];
  /** Records a JS/TS file a question reached that the program lacks: the index adds it and asks again. */
  missing(path: string): void;
}

function isIdentifierCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\w$]/.test(character);
}

/** Offset of `name` as a whole word in the source file's 1-based `line`, or -1. */
export function positionOfName(
  sourceFile: Pick<ts.SourceFile, 'text' | 'getLineStarts'>,
  line: number,
  name: string,
): number {
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

/** Offsets where the lines of `text` start, by the compiler's rule (LF, CR, CRLF, U+2028, U+2029 end a line). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\r' && text[index + 1] === '\n') index += 1;
    if (character === '\n' || character === '\r' || character === '\u2028' || character === '\u2029')
      starts.push(index + 1);
  }
  return starts;
}
