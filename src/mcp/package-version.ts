import packageJson from '../../package.json' with { type: 'json' };

/** This package's version, for MCP `clientInfo`: bundled from package.json at build time. */
export const packageVersion: string = packageJson.version;
