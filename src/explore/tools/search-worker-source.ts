import {
  privateKeyArmorSource,
  privateKeyKeyword,
  privateKeyRedaction,
} from '../sandbox/private-key-blocks.js';

/**
 * The code of a `search_text` worker, as plain JavaScript so it runs the same from the
 * TypeScript sources (vitest) and from the ESM and CJS bundles: `new Worker(code, { eval: true })`.
 * Dynamic `import()` works whether Node evaluates it as a script or as a module.
 *
 * A worker lives across searches (its JIT stays warm) and answers each job message with one
 * report. Per file it opens without blocking (a FIFO reads as empty, a device at most up to the
 * size cap), reads into a reused buffer (one `read` for files under 64 KiB, no
 * `fstat`), skips binaries and files over the size cap, redacts private key blocks line by line
 * as `redactPrivateKeys` does (so their text never matches), rejects files missing a required
 * literal at the byte level before decoding, only stats files ripgrep found no candidate
 * literal in (for the size cap), decodes pure-ASCII files as Latin-1 (a copy,
 * not a UTF-8 decode), and keeps at most `maxResults` lines plus a count per file.
 */
export const searchWorkerSource = String.raw`
(async () => {
  const { parentPort } = await import('node:worker_threads');
  const fs = await import('node:fs');
  const { isAscii } = await import('node:buffer');
  const firstRead = 64 * 1024;
  const tooLarge = Symbol('tooLarge');
  let scratch = Buffer.allocUnsafe(firstRead);
  let compiled = { key: '', finder: null, prefilters: [] };
  // O_NONBLOCK: a listed file swapped for a FIFO opens at once (and reads as empty) instead of
  // blocking the thread in open(), where terminate() cannot reach it and the process cannot exit.
  const openFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

  // Reads a whole file into the scratch buffer; the view is valid until the next read.
  const read = (path, maxFileBytes) => {
    const handle = fs.openSync(path, openFlags);
    try {
      let got = fs.readSync(handle, scratch, 0, scratch.length, 0);
      if (got === scratch.length) {
        const size = fs.fstatSync(handle).size;
        if (size > maxFileBytes) return tooLarge;
        if (scratch.length <= size) {
          const bigger = Buffer.allocUnsafe(Math.min(Math.max(size + 1, scratch.length * 2), maxFileBytes + 1));
          scratch.copy(bigger, 0, 0, got);
          scratch = bigger;
        }
        for (let more; got < scratch.length && (more = fs.readSync(handle, scratch, got, scratch.length - got, got)) > 0; ) got += more;
      }
      return got > maxFileBytes ? tooLarge : scratch.subarray(0, got);
    } finally {
      fs.closeSync(handle);
    }
  };

  // A literal every match contains: case-sensitive ones are found with a native byte search;
  // case-insensitive ones with a regex over the Latin-1 view (ASCII letters only match ASCII
  // letters without the u flag, so bytes and UTF-8 text agree).
  const compile = (job) => {
    const key = job.source + '/' + job.flags + '/' + job.literals.join('\0');
    if (compiled.key === key) return compiled;
    const caseSensitive = !job.flags.includes('i');
    const prefilters = job.literals.map((literal) =>
      caseSensitive || !/[a-z]/i.test(literal)
        ? { bytes: Buffer.from(literal, 'latin1') }
        : { regex: new RegExp(literal.replace(/[.*+?^$\{}()|[\]\\]/g, '\\$&'), 'i') },
    );
    compiled = { key, finder: new RegExp(job.source, job.flags), prefilters };
    return compiled;
  };

  // Without the u flag only these non-ASCII characters are \s or line terminators (for ^ and $):
  // U+00A0 (its A0 byte), U+1680, U+2000-200A, U+2028-2029, U+202F, U+205F, U+3000, U+FEFF.
  const spaceSequences = [[0xe1, 0x9a, 0x80], [0xe2, 0x81, 0x9f], [0xe3, 0x80, 0x80], [0xef, 0xbb, 0xbf]].map((sequence) => Buffer.from(sequence));
  const generalPunctuation = Buffer.from([0xe2, 0x80]);
  const hasUnicodeSpace = (view) => {
    if (view.indexOf(0xa0) !== -1) return true;
    for (const sequence of spaceSequences) if (view.indexOf(sequence) !== -1) return true;
    for (let at = view.indexOf(generalPunctuation); at !== -1; at = view.indexOf(generalPunctuation, at + 2)) {
      const third = view[at + 2];
      if ((third >= 0x80 && third <= 0x8a) || third === 0xa8 || third === 0xa9 || third === 0xaf) return true;
    }
    return false;
  };

  // Private key blocks become the redaction marker as redactPrivateKeys does it (see
  // private-key-blocks.ts); a Latin-1 round trip keeps every other byte as it was.
  const armor = new RegExp(${JSON.stringify(privateKeyArmorSource)}, 'g');
  const armorKeyword = Buffer.from(${JSON.stringify(privateKeyKeyword)}, 'latin1');
  const redaction = ${JSON.stringify(privateKeyRedaction)};
  const redactLine = (line, inside, armors) => {
    const carriageReturn = line.endsWith('\r') ? '\r' : '';
    const content = carriageReturn === '' ? line : line.slice(0, -1);
    let text = '';
    let keptFrom = 0;
    let blockStart = inside ? 0 : -1;
    for (const match of armors) {
      if (match[1] === 'BEGIN' && blockStart === -1) {
        text += content.slice(keptFrom, match.index);
        blockStart = match.index;
      } else if (match[1] === 'END' && blockStart !== -1) {
        const end = match.index + match[0].length;
        keptFrom = end + /^(?: BLOCK)? ?-{0,5}/.exec(content.slice(end, end + 12))[0].length;
        text += redaction;
        blockStart = -1;
      }
    }
    if (blockStart === -1) text += content.slice(keptFrom);
    else if (content.length > blockStart) text += redaction;
    return text + carriageReturn;
  };
  const redactPrivateKeys = (view) => {
    if (view.indexOf(armorKeyword) === -1) return view;
    let inside = false;
    const lines = view.toString('latin1').split('\n').map((line) => {
      const armors = [...line.matchAll(armor)];
      const insideAtStart = inside;
      for (const match of armors) inside = match[1] === 'BEGIN';
      return insideAtStart || armors.length > 0 ? redactLine(line, insideAtStart, armors) : line;
    });
    return Buffer.from(lines.join('\n'), 'latin1');
  };

  const cut = (line, column, maxLineChars) => {
    if (line.length <= maxLineChars) return line;
    const start = Math.max(0, Math.min(column - 80, line.length - maxLineChars));
    return (start > 0 ? '…' : '') + line.slice(start, start + maxLineChars) + (start + maxLineChars < line.length ? '…' : '');
  };

  const search = (job) => {
    const { root, files, candidates, first, stride, maxResults, maxFileBytes, maxLineChars, latin1Safety } = job;
    const { finder, prefilters } = compile(job);
    const matches = [];
    const counts = [];
    const large = [];
    let binary = 0;
    for (let position = 0; position < files.length; position++) {
      const fileIndex = first + position * stride;
      let text;
      let bytes;
      let ascii;
      if (candidates !== null && !candidates[position]) {
        // Cannot match: only its size counts, as a read would find it.
        const stats = fs.statSync(root + '/' + files[position], { throwIfNoEntry: false });
        if (stats !== undefined && stats.isFile() && stats.size > maxFileBytes) large.push(fileIndex);
        continue;
      }
      try {
        const raw = read(root + '/' + files[position], maxFileBytes);
        if (raw === tooLarge) { large.push(fileIndex); continue; }
        if (raw.subarray(0, 8192).includes(0)) { binary += 1; continue; }
        const view = redactPrivateKeys(raw);
        let latin1 = null;
        let rejected = false;
        for (const prefilter of prefilters) {
          if (prefilter.bytes !== undefined) rejected = view.indexOf(prefilter.bytes) === -1;
          else rejected = !prefilter.regex.test((latin1 ??= view.toString('latin1')));
          if (rejected) break;
        }
        if (rejected) continue;
        ascii = isAscii(view);
        // Offsets into a Latin-1 view are byte offsets: matched lines are decoded from the bytes.
        bytes = ascii || latin1Safety === 'always' || (latin1Safety === 'unless-unicode-spaces' && !hasUnicodeSpace(view)) ? view : null;
        text = bytes !== null ? (latin1 ?? view.toString('latin1')) : view.toString('utf8');
      } catch {
        continue;
      }
      const wantLines = matches.length < maxResults;
      let count = 0;
      let line = 1;
      let scanned = 0;
      finder.lastIndex = 0;
      let match;
      while ((match = finder.exec(text)) !== null) {
        const index = match.index;
        // An empty match after the final newline (or in an empty file) is on no line.
        if (index === text.length && (index === 0 || text.charCodeAt(index - 1) === 10)) break;
        for (let newline = text.indexOf('\n', scanned); newline !== -1 && newline < index; newline = text.indexOf('\n', newline + 1)) {
          line += 1;
          scanned = newline + 1;
        }
        let lineEnd = text.indexOf('\n', index);
        if (lineEnd === -1) lineEnd = text.length;
        count += 1;
        if (wantLines && matches.length < maxResults) {
          const lineStart = text.lastIndexOf('\n', index - 1) + 1;
          const decode = bytes !== null && !ascii;
          let content = decode ? bytes.toString('utf8', lineStart, lineEnd) : text.slice(lineStart, lineEnd);
          const column = decode ? bytes.toString('utf8', lineStart, index).length : index - lineStart;
          if (content.endsWith('\r')) content = content.slice(0, -1);
          matches.push([fileIndex, line, cut(content, column, maxLineChars)]);
        }
        scanned = lineEnd;
        if (lineEnd >= text.length) break;
        finder.lastIndex = lineEnd + 1;
      }
      if (count > 0) counts.push([fileIndex, count]);
    }
    return { id: job.id, matches, counts, tooLarge: large, binary };
  };

  parentPort.on('message', (job) => {
    let report;
    try {
      report = search(job);
    } catch (error) {
      report = { id: job.id, error: String((error && error.stack) || error) };
    }
    parentPort.postMessage(report);
  });
})();
`;
