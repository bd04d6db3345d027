import ts from 'typescript';

/**
 * The installed `typescript` version (an optional peer dependency). Its own module, so the
 * version is checked before the engine, whose modules use the compiler API as they load.
 */
export const typescriptVersion: string = ts.version;
