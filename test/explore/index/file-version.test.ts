import { describe, expect, it } from 'vitest';
import {
  mtimeOfVersion,
  sizeOfVersion,
  statVersion,
  watchedVersion,
} from '../../../src/explore/index/file-version.js';

describe('file versions', () => {
  it('reads the modification time and size with or without a watcher’s change count', () => {
    const stated = statVersion({ mtimeMs: 1795918302107.77, size: 4848 });
    expect(stated).toBe('1795918302107.77:4848');
    const watched = watchedVersion(stated, stated, 3);
    expect(watched).toBe('1795918302107.77:4848:3');
    for (const version of [stated, watched]) {
      expect(sizeOfVersion(version)).toBe(4848);
      expect(mtimeOfVersion(version)).toBe(1795918302107.77);
    }
  });

  it('changes the version of a watched change only when the stat looks the same', () => {
    expect(watchedVersion('10:5', '11:5', 1)).toBe('11:5');
    expect(watchedVersion('10:5', '10:5', 2)).toBe('10:5:2');
    expect(watchedVersion('10:5:2', '10:5', 3)).toBe('10:5:3');
    expect(watchedVersion(undefined, '10:5', 4)).toBe('10:5');
  });
});
