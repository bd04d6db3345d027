/** What a private key block reads as once redacted, once on each line it covers. */
export const privateKeyRedaction = '[private key redacted]';

/**
 * Regular expression source of the armor line that opens (`BEGIN`, group 1) or closes (`END`) a
 * private key block: PEM and OpenSSH (`-----BEGIN RSA PRIVATE KEY-----`, `EC`, `DSA`, `OPENSSH`,
 * `ENCRYPTED`, plain `PRIVATE KEY`), OpenPGP (`-----BEGIN PGP PRIVATE KEY BLOCK-----`) and SSH2
 * (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`). Certificates and public keys do not match.
 *
 * A match holds no line break and no `-` past its leading dashes, so two matches never overlap
 * and whether one starts at an offset depends only on the {@link maxArmorLength} characters
 * from there: a stream can be scanned in chunks with that many characters carried over. The
 * trailing ` BLOCK-----` is left out for the same reason; {@link redactLine} covers it.
 */
export const privateKeyArmorSource = '(?:-----|---- )(BEGIN|END) (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY';

/** The text every armor line contains, for a cheap test before the regular expression. */
export const privateKeyKeyword = 'PRIVATE KEY';

/** The longest match of {@link privateKeyArmorSource}. */
const maxArmorLength = '-----BEGIN '.length + 4 * 17 + privateKeyKeyword.length;

/** What follows an `END` armor match on its line and belongs to the block. */
const armorTail = /^(?: BLOCK)? ?-{0,5}/;

const noArmors: readonly Armor[] = Object.freeze([]);

/** One armor match on a line, by offsets in that line. */
export interface Armor {
  readonly start: number;
  readonly end: number;
  readonly kind: 'BEGIN' | 'END';
}

/** The armor matches of one line, and whether the line starts inside a block. */
export interface LineArmors {
  readonly insideAtStart: boolean;
  readonly armors: readonly Armor[];
}

/**
 * Follows a text line by line: a block runs from a `BEGIN` armor to the next `END` one, or to
 * the end of the text when none follows (a cut or malformed key is still a key).
 */
class BlockState {
  static readonly #outside: LineArmors = Object.freeze({ insideAtStart: false, armors: noArmors });
  static readonly #inBlock: LineArmors = Object.freeze({ insideAtStart: true, armors: noArmors });
  #inside = false;

  /** Takes the next line's armors, in order; returns them with the state the line starts in. */
  next(armors: readonly Armor[]): LineArmors {
    const insideAtStart = this.#inside;
    if (armors.length === 0) return insideAtStart ? BlockState.#inBlock : BlockState.#outside;
    for (const armor of armors) {
      if (armor.kind === 'BEGIN') this.#inside = true;
      else if (armor.kind === 'END') this.#inside = false;
    }
    return { insideAtStart, armors };
  }
}

/**
 * One line with the parts inside private key blocks replaced by {@link privateKeyRedaction}:
 * text before a `BEGIN` armor and after an `END` armor (and its `-----`) stays, so the code or
 * config around an inline key stays readable. A line wholly inside a block becomes the marker,
 * except an empty one; a `\r` ending the line stays.
 */
export function redactLine(line: string, { insideAtStart, armors }: LineArmors): string {
  const carriageReturn = line.endsWith('\r') ? '\r' : '';
  const content = carriageReturn === '' ? line : line.slice(0, -1);
  let text = '';
  let keptFrom = 0;
  let blockStart = insideAtStart ? 0 : -1;
  for (const armor of armors) {
    if (armor.kind === 'BEGIN' && blockStart === -1) {
      text += content.slice(keptFrom, armor.start);
      blockStart = armor.start;
    } else if (armor.kind === 'END' && blockStart !== -1) {
      keptFrom = armor.end + (armorTail.exec(content.slice(armor.end, armor.end + 12))?.[0].length ?? 0);
      text += privateKeyRedaction;
      blockStart = -1;
    }
  }
  if (blockStart === -1) text += content.slice(keptFrom);
  else if (content.length > blockStart) text += privateKeyRedaction;
  return text + carriageReturn;
}

/**
 * Replaces the private key blocks in `text` with {@link privateKeyRedaction}, line by line
 * ({@link redactLine}), so line numbers stay true. Text without `PRIVATE KEY` is returned as
 * it is after one substring search.
 */
export function redactPrivateKeys(text: string): string {
  if (!text.includes(privateKeyKeyword)) return text;
  const armor = new RegExp(privateKeyArmorSource, 'g');
  const state = new BlockState();
  return text
    .split('\n')
    .map((line) => {
      const armors = Array.from(line.matchAll(armor), (match) => ({
        start: match.index,
        end: match.index + match[0].length,
        kind: match[1] as Armor['kind'],
      }));
      const lineArmors = state.next(armors);
      return lineArmors.insideAtStart || armors.length > 0 ? redactLine(line, lineArmors) : line;
    })
    .join('\n');
}

/**
 * {@link redactPrivateKeys} for a file read as a stream of byte chunks: `scan` each chunk
 * before ending the lines it holds, then `endLine` each line, in order, and pass its bytes
 * (as Latin-1, so offsets are byte offsets) and the result to {@link redactLine} when the line
 * is in a block or holds an armor. Bounded memory whatever the file's size; a chunk without
 * `PRIVATE KEY` costs one byte search.
 */
export class PrivateKeyStream {
  readonly #armor = new RegExp(privateKeyArmorSource, 'g');
  readonly #keyword = Buffer.from(privateKeyKeyword, 'latin1');
  readonly #state = new BlockState();
  /** The last bytes scanned, so an armor cut between two chunks is found whole. */
  #carry = Buffer.alloc(0);
  #scannedBytes = 0;
  #lastArmorStart = -1;
  readonly #pending: Armor[] = [];

  /** Scans the next chunk of the file for armors. */
  scan(chunk: Buffer): void {
    const carryStart = this.#scannedBytes - this.#carry.length;
    const seam = Buffer.concat([
      this.#carry.subarray(-this.#keyword.length),
      chunk.subarray(0, this.#keyword.length),
    ]);
    if (chunk.includes(this.#keyword) || seam.includes(this.#keyword)) {
      const text = Buffer.concat([this.#carry, chunk]).toString('latin1');
      for (const match of text.matchAll(this.#armor)) {
        const start = carryStart + match.index;
        // An armor wholly inside the carry was found with the chunk before.
        if (start <= this.#lastArmorStart) continue;
        this.#lastArmorStart = start;
        this.#pending.push({ start, end: start + match[0].length, kind: match[1] as Armor['kind'] });
      }
    }
    const keep = Math.min(maxArmorLength - 1, this.#carry.length + chunk.length);
    this.#carry = Buffer.from(
      keep <= chunk.length
        ? chunk.subarray(chunk.length - keep)
        : Buffer.concat([this.#carry.subarray(this.#carry.length - (keep - chunk.length)), chunk]),
    );
    this.#scannedBytes += chunk.length;
  }

  /**
   * Ends the next line, which starts at byte `start` and whose line break (or the file's end)
   * is at byte `end`: its armors, by offsets in the line, and whether it starts in a block.
   */
  endLine(start: number, end: number): LineArmors {
    let count = 0;
    while (count < this.#pending.length && (this.#pending[count]?.start ?? end) < end) count += 1;
    if (count === 0) return this.#state.next(noArmors);
    const armors = this.#pending
      .splice(0, count)
      .map((armor) => ({ ...armor, start: armor.start - start, end: armor.end - start }));
    return this.#state.next(armors);
  }
}
