/** A number with thousands separators and `digits` decimals. */
export function formatNumber(value: number | undefined, digits = 1): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatBytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const magnitude = Math.abs(value);
  if (magnitude >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MB`;
  if (magnitude >= 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${Math.round(value)} B`;
}

/** `ours / peer`, as `0.12x`; below 1 means ours is smaller (faster, leaner). */
export function formatRatio(ours: number | undefined, peer: number | undefined): string {
  if (
    ours === undefined ||
    peer === undefined ||
    !Number.isFinite(ours) ||
    !Number.isFinite(peer) ||
    peer === 0
  )
    return 'n/a';
  const ratio = ours / peer;
  return `${ratio < 0.01 ? ratio.toFixed(4) : ratio < 0.1 ? ratio.toFixed(3) : ratio.toFixed(2)}x`;
}

/** A GitHub-flavoured markdown table. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  return lines.join('\n');
}
