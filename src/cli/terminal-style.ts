/** What {@link colorEnabled} reads from a stream: Node's `tty.WriteStream` has both. */
export interface ColorStream {
  readonly isTTY?: boolean;
  readonly hasColors?: (env?: Readonly<Record<string, string | undefined>>) => boolean;
}

/**
 * Whether to write color codes to `stream`. `FORCE_COLOR` decides first (`0` or `false` turn colors
 * off, any other value on, even when not a terminal); off a terminal there are none; a non-empty
 * `NO_COLOR` turns them off; otherwise Node's own `hasColors` decides from the terminal (`TERM=dumb`,
 * `NODE_DISABLE_COLORS`, the color depth).
 */
export function colorEnabled(
  stream: ColorStream,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (stream.isTTY !== true) return false;
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  // An empty NO_COLOR means "not set" (no-color.org); Node would count it as set.
  return stream.hasColors?.({ ...env, NO_COLOR: undefined }) ?? true;
}

/** SGR styles, or plain text when colors are off. */
export interface TerminalStyle {
  readonly enabled: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string): string => text;

/** The styles for one stream. */
export function createTerminalStyle(enabled: boolean): TerminalStyle {
  return enabled
    ? {
        enabled,
        bold: sgr(1, 22),
        dim: sgr(2, 22),
        red: sgr(31, 39),
        yellow: sgr(33, 39),
        green: sgr(32, 39),
        cyan: sgr(36, 39),
      }
    : { enabled, bold: plain, dim: plain, red: plain, yellow: plain, green: plain, cyan: plain };
}

/**
 * Cuts `text` (one line, no escape codes) to `columns` characters, ending in `…` when cut, so the
 * terminal never wraps it. Counts UTF-16 code units: close enough for paths, code and English.
 */
export function fitToWidth(text: string, columns: number | undefined): string {
  if (columns === undefined || columns < 2 || text.length <= columns) return text;
  return `${text.slice(0, columns - 1)}…`;
}

/** Ends a spinner or status line: carriage return, then erase the line. */
export const clearLine = '\r\u001b[2K';
