/**
 * The code of a `search_text` worker, as plain JavaScript so it runs the same from the
 * TypeScript sources (vitest) and from the ESM and CJS bundles: `new Worker(code, { eval: true })`.
 * Dynamic `import()` works whether Node evaluates it as a script or as a module.
 *
 * The worker reads its share of files synchronously (it is already off the main thread;
 * sync reads avoid promise overhead per file), skips binaries and files over the size
 * cap, tests the whole text once before looking for lines, and keeps at most
 * `maxResults` lines (plus a count per file), then posts one report.
 */
export const searchWorkerSource = String.raw`
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const fs = await import('node:fs');
  // The worker boots while the main thread walks the tree; its share of files arrives after.
  const files = await new Promise((resolve) => parentPort.once('message', resolve));
  const { root, source, flags, literal, maxResults, maxFileBytes, maxLineChars } = workerData;
  const caseSensitive = !flags.includes('i');
  const tester = new RegExp(source, flags.replace('g', ''));
  const finder = new RegExp(source, flags);
  const matches = [];
  const counts = [];
  const tooLarge = [];
  let binary = 0;
  const cut = (line, column) => {
    if (line.length <= maxLineChars) return line;
    const start = Math.max(0, Math.min(column - 80, line.length - maxLineChars));
    return (start > 0 ? '…' : '') + line.slice(start, start + maxLineChars) + (start + maxLineChars < line.length ? '…' : '');
  };
  for (const [fileIndex, relative] of files) {
    let text;
    try {
      const handle = fs.openSync(root + '/' + relative, 'r');
      try {
        const size = fs.fstatSync(handle).size;
        if (size > maxFileBytes) { tooLarge.push(fileIndex); continue; }
        const bytes = Buffer.allocUnsafe(size);
        let read = 0;
        while (read < size) {
          const got = fs.readSync(handle, bytes, read, size - read, read);
          if (got === 0) break;
          read += got;
        }
        const view = bytes.subarray(0, read);
        if (view.subarray(0, 8192).includes(0)) { binary += 1; continue; }
        // An ASCII literal can only match ASCII bytes, so most files are rejected before the
        // costlier UTF-8 decode: bytes directly, or Latin-1 (1 byte = 1 char) for /i.
        if (literal !== null) {
          if (caseSensitive ? view.indexOf(literal) === -1 : !tester.test(view.toString('latin1'))) continue;
        }
        text = view.toString('utf8');
      } finally {
        fs.closeSync(handle);
      }
    } catch {
      continue;
    }
    if (literal === null && !tester.test(text)) continue;
    const wantLines = matches.length < maxResults;
    let count = 0;
    let line = 1;
    let scanned = 0;
    finder.lastIndex = 0;
    let match;
    while ((match = finder.exec(text)) !== null) {
      const index = match.index;
      for (let newline = text.indexOf('\n', scanned); newline !== -1 && newline < index; newline = text.indexOf('\n', newline + 1)) {
        line += 1;
        scanned = newline + 1;
      }
      const lineStart = text.lastIndexOf('\n', index - 1) + 1;
      let lineEnd = text.indexOf('\n', index);
      if (lineEnd === -1) lineEnd = text.length;
      count += 1;
      if (wantLines && matches.length < maxResults) {
        let content = text.slice(lineStart, lineEnd);
        if (content.endsWith('\r')) content = content.slice(0, -1);
        matches.push([fileIndex, line, cut(content, index - lineStart)]);
      }
      scanned = lineEnd;
      if (lineEnd >= text.length) break;
      finder.lastIndex = lineEnd + 1;
    }
    counts.push([fileIndex, count]);
  }
  parentPort.postMessage({ matches, counts, tooLarge, binary });
})();
`;
