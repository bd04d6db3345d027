import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../../src/index.js';
import { isMissingPackage, optionalDependency } from '../../src/shared/optional-dependency.js';

// Real module-not-found errors from Node, for a package that is not installed.
const absent = 'tool-orchestrator-absent-package';
const options = {
  packageName: absent,
  versionRange: '^1',
  installCommand: `npm install ${absent}@1`,
  neededFor: 'The frobnicator tools',
};

describe('optionalDependency', () => {
  it('turns a missing package (import) into a MissingDependencyError naming it and the install command', async () => {
    const load = optionalDependency({ ...options, load: () => import(absent) });
    const failure = load();
    await expect(failure).rejects.toBeInstanceOf(MissingDependencyError);
    await expect(failure).rejects.toThrow(
      `The frobnicator tools need the package "${absent}" (^1), which is not installed. Install it beside tool-orchestrator: npm install ${absent}@1`,
    );
    await expect(failure).rejects.toMatchObject({ code: 'missing_dependency', packageName: absent });
  });

  it('recognises the CommonJS form of the error, and a subpath of the package', () => {
    const require = createRequire(import.meta.url);
    for (const specifier of [absent, `${absent}/grammar.wasm`]) {
      let caught: unknown;
      try {
        require(specifier);
      } catch (error) {
        caught = error;
      }
      expect(isMissingPackage(caught, absent)).toBe(true);
    }
  });

  it('passes other failures through: a missing file of ours, a bug in the loaded module', async () => {
    const ownModule = './no-such-module-of-ours.js';
    const ownFile = optionalDependency({ ...options, load: () => import(ownModule) });
    await expect(ownFile()).rejects.not.toBeInstanceOf(MissingDependencyError);
    const bug = new TypeError('x is not a function');
    const broken = optionalDependency({ ...options, load: () => Promise.reject(bug) });
    await expect(broken()).rejects.toBe(bug);
  });

  it('checks the installed version before loading', async () => {
    let loads = 0;
    const load = optionalDependency({
      ...options,
      version: () => Promise.resolve('2.0.1'),
      acceptsVersion: (version) => version.startsWith('1.'),
      load: () => Promise.resolve((loads += 1)),
    });
    await expect(load()).rejects.toThrow(
      `need the package "${absent}" (^1), but version 2.0.1 is installed.`,
    );
    expect(loads).toBe(0);
  });

  it('loads once, shares the promise, and tries again after a failure', async () => {
    let attempts = 0;
    const load = optionalDependency({
      ...options,
      load: () => ((attempts += 1) === 1 ? import(absent) : Promise.resolve({ attempt: attempts })),
    });
    await expect(load()).rejects.toBeInstanceOf(MissingDependencyError);
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toEqual({ attempt: 2 });
    expect(second).toBe(first);
    expect(attempts).toBe(2);
  });
});
