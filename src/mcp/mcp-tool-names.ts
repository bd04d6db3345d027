/** The longest tool name model APIs accept. */
const maxNameLength = 64;
const prefixPattern = /^[a-zA-Z0-9_-]{1,32}$/;

/** True when `prefix` can start tool names: 1-32 letters, digits, `_` or `-`. */
export function isValidPrefix(prefix: string): boolean {
  return prefixPattern.test(prefix);
}

/**
 * Maps the names a server gives its tools to registry names model APIs accept
 * (`^[a-zA-Z0-9_-]{1,64}$`): `prefix__name`, other characters replaced by `_`, names over 64
 * characters cut and ended with a hash of the original. Names that collide after that keep the
 * plain form for the one that needed no change (else the first in code-unit order) and `_2`,
 * `_3`... for the rest, in code-unit order. The result depends only on the set of names, never
 * on the order the server lists them in.
 *
 * @returns server name → registry name, for every distinct name given.
 */
export function assignToolNames(serverNames: readonly string[], prefix?: string): Map<string, string> {
  const head = prefix === undefined ? '' : `${prefix}__`;
  const groups = new Map<string, string[]>();
  for (const name of new Set(serverNames)) {
    const base = fit(`${head}${name.replace(/[^a-zA-Z0-9_-]/g, '_')}`, name);
    const group = groups.get(base);
    if (group === undefined) groups.set(base, [name]);
    else group.push(name);
  }
  const assigned = new Map<string, string>();
  // Every plain form is reserved first, so a suffixed name never takes another tool's plain name.
  const taken = new Set(groups.keys());
  const bases = [...groups.keys()].sort(compare);
  for (const base of bases) {
    const members = groups.get(base)!.sort((first, second) => {
      const firstExact = `${head}${first}` === base;
      const secondExact = `${head}${second}` === base;
      return firstExact === secondExact ? compare(first, second) : firstExact ? -1 : 1;
    });
    assigned.set(members[0]!, base);
    let suffix = 2;
    for (const name of members.slice(1)) {
      let candidate: string;
      do {
        const ending = `_${suffix++}`;
        candidate = `${base.slice(0, maxNameLength - ending.length)}${ending}`;
      } while (taken.has(candidate));
      taken.add(candidate);
      assigned.set(name, candidate);
    }
  }
  return assigned;
}

function fit(name: string, original: string): string {
  if (name.length === 0) return '_';
  if (name.length <= maxNameLength) return name;
  const ending = `_${fnv1a(original)}`;
  return `${name.slice(0, maxNameLength - ending.length)}${ending}`;
}

function compare(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits: short, stable, no dependency. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
