import type { NameUse } from '../tree-pass.js';

/**
 * tree-sitter-python's reserved words: always keywords, so never an `identifier` node in a
 * tree without errors.
 */
const reservedWords = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

/**
 * The grammar's other keywords: a name in one place (`type(x)`, `print(x)`, `match = ...`), a
 * keyword in another (`type X = int`, Python 2's `print x`, `match x:`); only the tree knows.
 */
const softKeywords = new Set(['_', '__future__', 'case', 'exec', 'match', 'print', 'type']);

// The grammar's tokens, read from tree-sitter-python's grammar.js and scanner.c.
const identifierPattern = /[_\p{XID_Start}][_\p{XID_Continue}]*/uy;
const numberPattern =
  /0[xX][\da-fA-F_]+[Ll]?|0[oO][0-7_]+[Ll]?|0[bB][01_]+[Ll]?|(?:\d[\d_]*\.(?:\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?|\d[\d_]*(?:[eE][+-]?\d[\d_]*[jJ]?|[LljJ]?)/y;
const escapeSequence =
  /\\(?:u[a-fA-F\d]{4}|U[a-fA-F\d]{8}|x[a-fA-F\d]{2}|\d{1,3}|\r?\n|['"abfrntv\\]|N\{[^}]+\})/y;

// Character codes.
const lineFeed = 10;
const carriageReturn = 13;
const bang = 33;
const doubleQuote = 34;
const hash = 35;
const singleQuote = 39;
const openParen = 40;
const closeParen = 41;
const dot = 46;
const colon = 58;
const openBracket = 91;
const backslash = 92;
const closeBracket = 93;
const underscore = 95;
const backtick = 96;
const openBrace = 123;
const closeBrace = 125;

// String prefix flags.
const formatFlag = 1;
const rawFlag = 2;
const bytesFlag = 4;

// What a character starts in code, by ASCII code; anything past ASCII may start a name.
const otherChar = 0;
const wordStart = 1;
const digitChar = 2;
const quoteChar = 3;
const hashChar = 4;
const dotChar = 5;
const openChar = 6;
const closeChar = 7;
const colonChar = 8;
const bangChar = 9;
const charKinds = new Uint8Array(128);
/** 1 for the ASCII characters that continue a name. */
const wordParts = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) {
  const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === underscore;
  const digit = isDigit(code);
  wordParts[code] = letter || digit ? 1 : 0;
  charKinds[code] = letter ? wordStart : digit ? digitChar : otherChar;
}
for (const code of [singleQuote, doubleQuote, backtick]) charKinds[code] = quoteChar;
charKinds[hash] = hashChar;
charKinds[dot] = dotChar;
for (const code of [openParen, openBracket, openBrace]) charKinds[code] = openChar;
for (const code of [closeParen, closeBracket, closeBrace]) charKinds[code] = closeChar;
charKinds[colon] = colonChar;
charKinds[bang] = bangChar;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The flags of a string prefix (`rb`, `f`, `U`), or -1 when the word is not one. */
function prefixFlags(text: string, start: number, end: number): number {
  let flags = 0;
  for (let index = start; index < end; index += 1) {
    switch (text[index]) {
      case 'f':
      case 'F':
      case 't':
      case 'T':
        flags |= formatFlag;
        break;
      case 'r':
      case 'R':
        flags |= rawFlag;
        break;
      case 'b':
      case 'B':
        flags |= bytesFlag;
        break;
      case 'u':
      case 'U':
        break;
      default:
        return -1;
    }
  }
  return flags;
}

/** What {@link scanPythonNames} finds. */
export interface PythonNames {
  /** The identifiers, in source order. */
  readonly names: NameUse[];
  /** Where each `class`, `def` and `import` keyword starts: one in every definition and import statement. */
  readonly statementKeywords: number[];
}

/**
 * Finds the identifiers of Python source the way tree-sitter-python's tokenizer does, skipping
 * comments, strings and numbers; the expressions inside f-string `{...}` are code (their
 * `!r` conversions and `:>10` format specs are not). Used only on a file whose tree parsed
 * without errors, where it yields exactly the tree's `identifier` nodes: a reserved word is
 * never one, and for a soft keyword (`print`, `type`, `match`, ...) `isName` asks the tree.
 */
export function scanPythonNames(text: string, isName: (start: number, end: number) => boolean): PythonNames {
  const names: NameUse[] = [];
  const keywords: number[] = [];
  const length = text.length;
  // Lines as tree-sitter counts them (split at `\n` only), followed as names are found in order.
  let line = 1;
  let lineStart = 0;
  let nextBreak = text.indexOf('\n');

  /** Code from `index` to the end, or in an f-string's `{...}` to just after its `}`. */
  function code(index: number, interpolation: boolean): number {
    let depth = 0;
    while (index < length) {
      const char = text.charCodeAt(index);
      switch (char < 128 ? charKinds[char] : wordStart) {
        case wordStart:
          index = word(index);
          break;
        case quoteChar:
          index = string(index, 0);
          break;
        case hashChar: {
          const end = text.indexOf('\n', index);
          index = end === -1 ? length : end;
          break;
        }
        case digitChar:
          index = number(index);
          break;
        case dotChar:
          index = isDigit(text.charCodeAt(index + 1)) ? number(index) : index + 1;
          break;
        case openChar:
          if (interpolation) depth += 1;
          index += 1;
          break;
        case closeChar:
          index += 1;
          if (!interpolation) break;
          if (depth === 0 && char === closeBrace) return index;
          depth -= 1;
          break;
        case colonChar:
          index = interpolation && depth === 0 ? formatSpecifier(index + 1) : index + 1;
          break;
        case bangChar:
          // A conversion: `!r`, `!s`, `!a`.
          index += interpolation && depth === 0 && isAsciiLowercase(text.charCodeAt(index + 1)) ? 2 : 1;
          break;
        default:
          index += 1;
      }
    }
    return index;
  }

  function number(index: number): number {
    numberPattern.lastIndex = index;
    return numberPattern.test(text) ? numberPattern.lastIndex : index + 1;
  }

  /** An f-string's format spec after `:`, up to (not past) its closing `}`; `{...}` inside are code. */
  function formatSpecifier(index: number): number {
    while (index < length) {
      const char = text.charCodeAt(index);
      if (char === closeBrace) return index;
      index = char === openBrace ? code(index + 1, true) : index + 1;
    }
    return index;
  }

  /** A name, a keyword or a string prefix starting at `index`. */
  function word(index: number): number {
    let end = index;
    let char = 0;
    while (end < length && (char = text.charCodeAt(end)) < 128 && wordParts[char] === 1) end += 1;
    if (end < length && char >= 128) {
      identifierPattern.lastIndex = index;
      if (!identifierPattern.test(text)) return index + 1;
      end = identifierPattern.lastIndex;
      char = text.charCodeAt(end);
    }
    if (end < length && char < 128 && charKinds[char] === quoteChar) {
      const flags = prefixFlags(text, index, end);
      if (flags !== -1) return string(end, flags);
    }
    const name = text.slice(index, end);
    if (reservedWords.has(name)) {
      if (name === 'class' || name === 'def' || name === 'import') keywords.push(index);
    } else if (!softKeywords.has(name) || isName(index, end)) {
      while (nextBreak !== -1 && nextBreak < index) {
        line += 1;
        lineStart = nextBreak + 1;
        nextBreak = text.indexOf('\n', lineStart);
      }
      names.push({ name, start: index, line, column: index - lineStart + 1 });
    }
    return end;
  }

  /** A string literal from its opening quote to just after its closing one. */
  function string(index: number, flags: number): number {
    const quote = text.charCodeAt(index);
    const triple = text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote;
    index += triple ? 3 : 1;
    while (index < length) {
      const char = text.charCodeAt(index);
      if (char === quote) {
        if (!triple) return index + 1;
        if (text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote) return index + 3;
        index += 1;
      } else if (char === backslash) {
        index = escape(index, flags, quote);
      } else if ((flags & formatFlag) !== 0 && char === openBrace) {
        index = text.charCodeAt(index + 1) === openBrace ? index + 2 : code(index + 1, true);
      } else if ((flags & formatFlag) !== 0 && char === closeBrace) {
        index += text.charCodeAt(index + 1) === closeBrace ? 2 : 1;
      } else {
        index += 1;
      }
    }
    return index;
  }

  /** A backslash in a string: what it escapes, as tree-sitter-python's scanner and grammar read it. */
  function escape(index: number, flags: number, quote: number): number {
    if ((flags & rawFlag) !== 0) {
      index += 1;
      const escaped = text.charCodeAt(index);
      if (escaped === quote || escaped === backslash) index += 1;
      if (text.charCodeAt(index) === carriageReturn) {
        index += 1;
        if (text.charCodeAt(index) === lineFeed) index += 1;
      } else if (text.charCodeAt(index) === lineFeed) index += 1;
      return index;
    }
    const next = text[index + 1];
    if ((flags & bytesFlag) !== 0 && (next === 'N' || next === 'u' || next === 'U')) return index + 2;
    escapeSequence.lastIndex = index;
    return escapeSequence.test(text) ? escapeSequence.lastIndex : index + 1;
  }

  code(0, false);
  return { names, statementKeywords: keywords };
}

function isAsciiLowercase(code: number): boolean {
  return code >= 97 && code <= 122;
}
