import type { CodeSymbol, ImportRecord, ParsedFile, SymbolKind } from './code-symbol.js';

interface Rule {
  readonly pattern: RegExp;
  readonly kind: SymbolKind;
  /** Whether a match is public: by default names not starting with `_`. */
  readonly exported?: (match: RegExpExecArray) => boolean;
}

const capitalised = (match: RegExpExecArray): boolean => /^[A-Z]/.test(match.groups?.['name'] ?? '');
const publicModifier = (match: RegExpExecArray): boolean => /\bpub\b|\bpublic\b|\bexport\b/.test(match[0]);
const javaModifiers = String.raw`^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|override|async|virtual|partial)\s+)*`;

const rules: Readonly<Record<string, readonly Rule[]>> = {
  python: [
    { pattern: /^\s*class\s+(?<name>\w+)/, kind: 'class' },
    { pattern: /^\s*(?:async\s+)?def\s+(?<name>\w+)\s*\(/, kind: 'function' },
    { pattern: /^(?<name>[A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=/, kind: 'variable' },
  ],
  go: [
    { pattern: /^func\s+\([^)]*\)\s*(?<name>\w+)/, kind: 'method', exported: capitalised },
    { pattern: /^func\s+(?<name>\w+)/, kind: 'function', exported: capitalised },
    { pattern: /^type\s+(?<name>\w+)\s+struct\b/, kind: 'struct', exported: capitalised },
    { pattern: /^type\s+(?<name>\w+)\s+interface\b/, kind: 'interface', exported: capitalised },
    { pattern: /^type\s+(?<name>\w+)/, kind: 'type', exported: capitalised },
  ],
  rust: [
    {
      pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(?<name>\w+)/,
      kind: 'function',
      exported: publicModifier,
    },
    {
      pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+(?<name>\w+)/,
      kind: 'struct',
      exported: publicModifier,
    },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?enum\s+(?<name>\w+)/, kind: 'enum', exported: publicModifier },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?trait\s+(?<name>\w+)/, kind: 'trait', exported: publicModifier },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?type\s+(?<name>\w+)/, kind: 'type', exported: publicModifier },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?<name>\w+)/, kind: 'module', exported: publicModifier },
    {
      pattern: /^\s*impl(?:<[^>]*>)?\s+(?:\w+(?:<[^>]*>)?\s+for\s+)?(?<name>\w+)/,
      kind: 'class',
      exported: () => false,
    },
  ],
  java: [
    {
      pattern: new RegExp(`${javaModifiers}(?:class|interface|enum|record|object)\\s+(?<name>\\w+)`),
      kind: 'class',
      exported: publicModifier,
    },
    {
      pattern: new RegExp(
        `${javaModifiers}(?:fun\\s+)?(?:<[^>]+>\\s+)?[\\w<>\\[\\],.? ]*?\\b(?<name>\\w+)\\s*\\([^;]*$`,
      ),
      kind: 'function',
      exported: publicModifier,
    },
  ],
  ruby: [
    { pattern: /^\s*(?:class|module)\s+(?<name>[\w:]+)/, kind: 'class' },
    { pattern: /^\s*def\s+(?:self\.)?(?<name>\w+[?!=]?)/, kind: 'function' },
  ],
  c: [
    { pattern: /^(?:struct|union|enum)\s+(?<name>\w+)\s*\{/, kind: 'struct' },
    { pattern: /^(?!\s)(?!return\b|if\b|else\b)[\w\s*]+?\b(?<name>\w+)\s*\([^;]*$/, kind: 'function' },
  ],
};
const aliases: Readonly<Record<string, string>> = {
  kotlin: 'java',
  csharp: 'java',
  scala: 'java',
  swift: 'java',
  php: 'java',
  cpp: 'c',
};
const keywords = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'new',
  'else',
  'do',
  'try',
  'synchronized',
]);
const containerKinds = new Set<SymbolKind>(['class', 'struct', 'interface', 'trait']);

function blockEnd(lines: readonly string[], start: number, language: string): number {
  const indentOf = (line: string): number => line.length - line.trimStart().length;
  if (language === 'python' || language === 'ruby') {
    const indent = indentOf(lines[start] ?? '');
    let end = start;
    for (let index = start + 1; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      if (line.trim() === '') continue;
      if (indentOf(line) <= indent) return language === 'ruby' && /^\s*end\b/.test(line) ? index : end;
      end = index;
    }
    return end;
  }
  let depth = 0;
  let opened = false;
  for (let index = start; index < lines.length; index += 1) {
    for (const character of lines[index] ?? '') {
      if (character === '{') [depth, opened] = [depth + 1, true];
      else if (character === '}') depth -= 1;
    }
    if (opened && depth <= 0) return index;
    if (!opened && index > start && /;\s*$/.test(lines[index - 1] ?? '')) return index - 1;
  }
  return start;
}

function collectFallbackImports(lines: readonly string[]): ImportRecord[] {
  const records: ImportRecord[] = [];
  const patterns = [
    /^\s*from\s+([\w.]+)\s+import\s+(.+)/,
    /^\s*import\s+"([^"]+)"/,
    /^\s*"([^"]+)"\s*$/,
    /^\s*use\s+([\w:]+)/,
    /^\s*import\s+(?:static\s+)?([\w.]+)/,
    /^\s*#include\s+[<"]([^>"]+)/,
    /^\s*require(?:_relative)?\s+['"]([^'"]+)/,
  ];
  let inGoBlock = false;
  lines.forEach((line, index) => {
    if (/^import\s*\($/.test(line)) inGoBlock = true;
    else if (inGoBlock && /^\)/.test(line)) inGoBlock = false;
    for (const [position, pattern] of patterns.entries()) {
      if (position === 2 && !inGoBlock) continue;
      const match = pattern.exec(line);
      if (!match?.[1]) continue;
      const names = match[2]?.split(',').map((name) => name.trim().split(/\s+as\s+/)[0] ?? '') ?? [];
      records.push({
        specifier: match[1],
        type: 'import',
        names: names.filter(Boolean),
        line: index + 1,
        typeOnly: false,
      });
      break;
    }
  });
  return records;
}

/**
 * Regex fallback for Python, Go, Rust, Java/Kotlin/C#/Scala/Swift/PHP, Ruby and C/C++:
 * definitions by line pattern, block ends by indentation (Python, Ruby) or brace counting,
 * members by the enclosing class range. Approximate by design: no strings or comments are parsed.
 */
export function parseWithFallback(path: string, text: string, language: string): ParsedFile {
  const lines = text.split('\n');
  const languageRules = rules[aliases[language] ?? language] ?? [];
  const symbols: CodeSymbol[] = [];
  const containers: { name: string; start: number; end: number; indent: number }[] = [];
  lines.forEach((line, index) => {
    for (const rule of languageRules) {
      const match = rule.pattern.exec(line);
      const name = match?.groups?.['name'];
      if (!match || name === undefined || keywords.has(name)) continue;
      const end = blockEnd(lines, index, language);
      const indent = line.length - line.trimStart().length;
      const container = containers
        .filter(
          (candidate) =>
            candidate.start < index &&
            candidate.end >= index &&
            candidate.indent < indent + (language === 'go' ? 1 : 0),
        )
        .at(-1);
      const isMember = container !== undefined && (rule.kind === 'function' || rule.kind === 'method');
      const exported = rule.exported ? rule.exported(match) : !name.startsWith('_');
      if (containerKinds.has(rule.kind)) containers.push({ name, start: index, end, indent });
      if (language === 'rust' && /^\s*impl\b/.test(line)) break;
      symbols.push({
        name,
        kind: isMember ? 'method' : rule.kind,
        exported,
        startLine: index + 1,
        endLine: end + 1,
        signature: line
          .trim()
          .replace(/\s*[{:]\s*$/, '')
          .slice(0, 160),
        ...(isMember ? { container: container.name } : {}),
      });
      break;
    }
  });
  const references = new Map<string, number>();
  for (const word of text.match(/[A-Za-z_]\w*/g) ?? []) references.set(word, (references.get(word) ?? 0) + 1);
  for (const symbol of symbols) references.set(symbol.name, (references.get(symbol.name) ?? 1) - 1);
  const exports = symbols
    .filter((symbol) => symbol.exported && symbol.container === undefined)
    .map((symbol) => ({ name: symbol.name, line: symbol.startLine }));
  return {
    path,
    engine: 'regex',
    language,
    lineCount: lines.length,
    symbols,
    imports: collectFallbackImports(lines),
    exports,
    references,
  };
}
