import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';

/** Bumped whenever the snapshot layout changes: older snapshots are then never read. */
export const snapshotFormat = 2;

const magic = Buffer.from('TORS', 'latin1');
const checksumBytes = 32;
/** Magic, format, payload length, checksum. */
const headerBytes = magic.length + 4 + 4 + checksumBytes;

/** One file as a snapshot records it. */
export interface SnapshotFile {
  readonly path: string;
  /** `mtimeMs:size` when it was read: a file with the same one now is trusted to be unchanged. */
  readonly version: string;
  /** The parse cache's key of its text (see `contentKey`), when it was computed. */
  readonly key: string | undefined;
  /** Whether it may declare globals (see `mayDeclareGlobals`). */
  readonly mayDeclareGlobals: boolean;
  /** Its word runs (see `wordsOf`). */
  readonly words: readonly string[];
}

/**
 * A file listing as a walk gave it, with the folder stamps that prove it current (see
 * `ListingStamps`): a later process whose folders, and their `.gitignore` files, have the same
 * stamps would walk to the same files.
 */
export interface StoredListing {
  /** What decided the listing besides the disk (`CodeIndexSandbox.listingIdentity`). */
  readonly identity: string;
  readonly files: readonly string[];
  /** The folders the walk read, repo-relative ('' for the root). */
  readonly directories: readonly string[];
  /** Each folder's stamp and its `.gitignore`'s, as `stampListing` took them. */
  readonly stamps: readonly string[];
}

/** What a snapshot is about: checked on read, so one repository's snapshot never answers for another. */
export interface SnapshotOwner {
  /** The real path of the repository root. */
  readonly root: string;
  /** The parser identity its keys were computed under. */
  readonly identity: string;
}

/** The payload as serialized: columns of the files, then an inverted index from words to file ordinals. */
interface SnapshotPayload extends SnapshotOwner {
  readonly paths: string[];
  readonly versions: string[];
  /** `''` for a file without a key. */
  readonly keys: string[];
  readonly globals: Uint8Array;
  readonly words: string[];
  /** Where each word's postings start in `postings`; one more than `words`, the last is `postings.length`. */
  readonly postingStarts: Uint32Array;
  readonly postings: Uint32Array;
  /** The listing of the process that wrote it, when its stamps were taken. */
  readonly listing: StoredListing | null;
}

/**
 * A repository's files as one process saw them, for the next: each file's version and content
 * key, whether it may declare globals, and which files hold which words, so the text prefilter
 * answers for unchanged files without their texts.
 */
export class RepositorySnapshot {
  readonly #payload: SnapshotPayload;
  readonly #ordinals: Map<string, number>;
  #wordOrdinals: Map<string, number> | undefined;

  private constructor(payload: SnapshotPayload) {
    this.#payload = payload;
    this.#ordinals = new Map(payload.paths.map((path, ordinal) => [path, ordinal]));
  }

  /** How many files it records. */
  get size(): number {
    return this.#payload.paths.length;
  }

  /** The repo-relative paths of the files it records. */
  get paths(): readonly string[] {
    return this.#payload.paths;
  }

  /** The listing it stores, if any: to be trusted only while its stamps hold. */
  get listing(): StoredListing | undefined {
    return this.#payload.listing ?? undefined;
  }

  /** The record of `path` when its version is `version`, else `undefined` (absent or changed since). */
  lookup(
    path: string,
    version: string,
  ):
    | { readonly ordinal: number; readonly key: string | undefined; readonly mayDeclareGlobals: boolean }
    | undefined {
    const ordinal = this.#ordinals.get(path);
    if (ordinal === undefined || this.#payload.versions[ordinal] !== version) return undefined;
    const key = this.#payload.keys[ordinal];
    return {
      ordinal,
      key: key === '' ? undefined : key,
      mayDeclareGlobals: this.#payload.globals[ordinal] === 1,
    };
  }

  /** The ordinals of the files holding every one of `pieces` among their words. */
  filesWithAll(pieces: readonly string[]): Set<number> {
    this.#wordOrdinals ??= new Map(this.#payload.words.map((word, ordinal) => [word, ordinal]));
    let found: Set<number> | undefined;
    for (const piece of pieces) {
      const word = this.#wordOrdinals.get(piece);
      if (word === undefined) return new Set();
      const { postingStarts, postings } = this.#payload;
      const holding = new Set(postings.subarray(postingStarts[word], postingStarts[word + 1]));
      found = found === undefined ? holding : new Set([...found].filter((ordinal) => holding.has(ordinal)));
    }
    return found ?? new Set();
  }

  /** The words of every file, by ordinal: what a new snapshot carries over for files that did not change. */
  wordsByFile(): string[][] {
    const { words, postingStarts, postings, paths } = this.#payload;
    const byFile = paths.map((): string[] => []);
    words.forEach((word, ordinal) => {
      for (let at = postingStarts[ordinal] ?? 0; at < (postingStarts[ordinal + 1] ?? 0); at += 1) {
        byFile[postings[at] ?? 0]?.push(word);
      }
    });
    return byFile;
  }

  /** The bytes of a snapshot of `files`: a header (magic, format, length, SHA-256 of the payload), then the payload serialized by `node:v8`. */
  static encode(
    owner: SnapshotOwner,
    files: readonly SnapshotFile[],
    listing: StoredListing | undefined = undefined,
  ): Buffer {
    const wordOrdinals = new Map<string, number>();
    const postingLists: number[][] = [];
    files.forEach((file, fileOrdinal) => {
      for (const word of file.words) {
        let ordinal = wordOrdinals.get(word);
        if (ordinal === undefined) {
          ordinal = postingLists.length;
          wordOrdinals.set(word, ordinal);
          postingLists.push([]);
        }
        postingLists[ordinal]?.push(fileOrdinal);
      }
    });
    const postingStarts = new Uint32Array(postingLists.length + 1);
    postingLists.forEach((list, ordinal) => {
      postingStarts[ordinal + 1] = (postingStarts[ordinal] ?? 0) + list.length;
    });
    const payload: SnapshotPayload = {
      root: owner.root,
      identity: owner.identity,
      paths: files.map((file) => file.path),
      versions: files.map((file) => file.version),
      keys: files.map((file) => file.key ?? ''),
      globals: Uint8Array.from(files, (file) => (file.mayDeclareGlobals ? 1 : 0)),
      words: [...wordOrdinals.keys()],
      postingStarts,
      postings: Uint32Array.from(postingLists.flat()),
      listing:
        listing === undefined
          ? null
          : {
              identity: listing.identity,
              files: [...listing.files],
              directories: [...listing.directories],
              stamps: [...listing.stamps],
            },
    };
    const bytes = serialize(payload);
    const header = Buffer.alloc(headerBytes);
    magic.copy(header, 0);
    header.writeUInt32LE(snapshotFormat, magic.length);
    header.writeUInt32LE(bytes.length, magic.length + 4);
    createHash('sha256')
      .update(bytes)
      .digest()
      .copy(header, magic.length + 8);
    return Buffer.concat([header, bytes]);
  }

  /**
   * The snapshot the bytes hold, or `undefined` when they are not a whole, intact snapshot of this
   * format written for `owner`: truncated, garbled, of another format, another repository or parser.
   */
  static decode(bytes: Buffer, owner: SnapshotOwner): RepositorySnapshot | undefined {
    if (bytes.length < headerBytes || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
    if (bytes.readUInt32LE(magic.length) !== snapshotFormat) return undefined;
    if (bytes.readUInt32LE(magic.length + 4) !== bytes.length - headerBytes) return undefined;
    const body = bytes.subarray(headerBytes);
    const checksum = bytes.subarray(magic.length + 8, headerBytes);
    if (!createHash('sha256').update(body).digest().equals(checksum)) return undefined;
    let payload: unknown;
    try {
      payload = deserialize(body);
    } catch {
      return undefined;
    }
    return isPayloadOf(payload, owner) ? new RepositorySnapshot(payload) : undefined;
  }
}

function isStrings(value: unknown, length?: number): value is string[] {
  return (
    Array.isArray(value) &&
    (length === undefined || value.length === length) &&
    value.every((item) => typeof item === 'string')
  );
}

/** Whether a deserialized value is a consistent payload for `owner`: every column as long as the files, every posting a file. */
function isPayloadOf(value: unknown, owner: SnapshotOwner): value is SnapshotPayload {
  if (typeof value !== 'object' || value === null) return false;
  const payload = value as Partial<Record<keyof SnapshotPayload, unknown>>;
  if (payload.root !== owner.root || payload.identity !== owner.identity) return false;
  const { paths, versions, keys, globals, words, postingStarts, postings } = payload;
  if (!isStrings(paths) || !isStrings(versions, paths.length) || !isStrings(keys, paths.length)) return false;
  if (!(globals instanceof Uint8Array) || globals.length !== paths.length || !isStrings(words)) return false;
  if (!(postingStarts instanceof Uint32Array) || !(postings instanceof Uint32Array)) return false;
  if (postingStarts.length !== words.length + 1 || postingStarts[0] !== 0) return false;
  if (postingStarts[words.length] !== postings.length) return false;
  for (let ordinal = 0; ordinal < words.length; ordinal += 1) {
    if ((postingStarts[ordinal + 1] ?? 0) < (postingStarts[ordinal] ?? 0)) return false;
  }
  return postings.every((file) => file < paths.length) && isListing(payload.listing);
}

/** Null, or a listing whose every folder has a stamp. */
function isListing(value: unknown): value is StoredListing | null {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  const { identity, files, directories, stamps } = value as Partial<Record<keyof StoredListing, unknown>>;
  return (
    typeof identity === 'string' &&
    isStrings(files) &&
    isStrings(directories) &&
    isStrings(stamps, directories.length)
  );
}
