import type { SnapshotFile, StoredListing } from './repository-snapshot.js';
import type { SnapshotStore } from './snapshot-store.js';

/** Changes are saved once none came for this long, so one question's reads and parses make one save. */
const saveDelayMs = 250;

/** Options of {@link SnapshotSaving}. */
export interface SnapshotSavingOptions {
  readonly store: SnapshotStore;
  /** The files to record, gathered when a save starts. */
  readonly files: () => Promise<SnapshotFile[]>;
  /** The listing to store beside them, asked at each save. @default none */
  readonly listing?: (() => Promise<StoredListing | undefined>) | undefined;
}

/**
 * When the repository snapshot is written: once changes stop coming for a moment (`changed`), or
 * at once (`flush`). One save runs at a time; changes made during it schedule another. The timer
 * holds the process open until the snapshot is written.
 */
export class SnapshotSaving {
  readonly #store: SnapshotStore;
  readonly #files: () => Promise<SnapshotFile[]>;
  readonly #listing: (() => Promise<StoredListing | undefined>) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;
  #dirty = false;

  constructor(options: SnapshotSavingOptions) {
    this.#store = options.store;
    this.#files = options.files;
    this.#listing = options.listing;
  }

  /** Schedules a save, once changes stop for a moment. */
  changed(): void {
    this.#dirty = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, saveDelayMs);
  }

  /** Saves pending changes now rather than after the delay; resolves once every save under way is written. */
  async flush(): Promise<void> {
    // A save under way when changes came schedules another on its end: that one is started at once too.
    for (;;) {
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#start();
      }
      if (this.#saving === undefined) return;
      await this.#saving;
    }
  }

  /** Starts a save unless one is under way (that one schedules another for changes made meanwhile). */
  #start(): void {
    this.#saving ??= this.#save().finally(() => (this.#saving = undefined));
  }

  async #save(): Promise<void> {
    if (!this.#dirty) return;
    this.#dirty = false;
    const files = await this.#files();
    const listing = await this.#listing?.().catch(() => undefined);
    await this.#store.write(files, listing);
    if (this.#dirty) this.changed();
  }
}
