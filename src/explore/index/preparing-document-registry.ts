import ts from 'typescript';

/**
 * A document registry (the language service's store of parsed files) that can parse a file
 * ahead of the program that will hold it, exactly as the service would: with the bucket key
 * and source-file options the service last used for a file of the same module format. A later
 * program finds the file parsed, so growing the program only binds it; parsing, the larger
 * part of the work, can be spread over small slices of idle time.
 */
export class PreparingDocumentRegistry implements ts.DocumentRegistry {
  readonly #registry: ts.DocumentRegistry = ts.createDocumentRegistry();
  /** The service's last acquisition per module format (`impliedNodeFormat`): what a prepared file is parsed with. */
  readonly #acquisitions = new Map<
    ts.ResolutionMode,
    {
      readonly host: ts.CompilerOptions | ts.MinimalResolutionCacheHost;
      readonly key: ts.DocumentRegistryBucketKey;
      readonly options: ts.CreateSourceFileOptions;
    }
  >();
  /** Versions of the files parsed ahead, so each is parsed once. */
  readonly #prepared = new Map<string, string>();

  /**
   * Parses `fileName` into the registry as the service would acquire it; false when it was
   * prepared at this version before, or the service has not yet acquired a file of its module
   * format (the service then parses it itself).
   */
  prepare(
    fileName: string,
    version: string,
    impliedNodeFormat: ts.ResolutionMode,
    snapshotOf: () => ts.IScriptSnapshot | undefined,
  ): boolean {
    const acquisition = this.#acquisitions.get(impliedNodeFormat);
    if (acquisition === undefined || this.#prepared.get(fileName) === version) return false;
    const snapshot = snapshotOf();
    if (snapshot === undefined) return false;
    this.#registry.acquireDocumentWithKey(
      fileName,
      fileName as ts.Path,
      acquisition.host,
      acquisition.key,
      snapshot,
      version,
      undefined,
      acquisition.options,
    );
    this.#prepared.set(fileName, version);
    return true;
  }

  /**
   * Drops the hold `prepare` took on a file once a program holds it, so the file leaves the
   * registry when the last program does, as an unprepared one would.
   */
  settle(sourceFile: ts.SourceFile): void {
    if (this.#prepared.get(sourceFile.fileName) === undefined) return;
    this.#prepared.delete(sourceFile.fileName);
    const acquisition = this.#acquisitions.get(sourceFile.impliedNodeFormat);
    if (acquisition === undefined) return;
    this.releaseDocumentWithKey(
      sourceFile.fileName as ts.Path,
      acquisition.key,
      // A runtime property of every source file that the public typings leave out.
      (sourceFile as ts.SourceFile & { readonly scriptKind?: ts.ScriptKind }).scriptKind,
      sourceFile.impliedNodeFormat,
    );
  }

  acquireDocument(...parameters: Parameters<ts.DocumentRegistry['acquireDocument']>): ts.SourceFile {
    return this.#registry.acquireDocument(...parameters);
  }

  acquireDocumentWithKey(
    fileName: string,
    path: ts.Path,
    compilationSettingsOrHost: ts.CompilerOptions | ts.MinimalResolutionCacheHost,
    key: ts.DocumentRegistryBucketKey,
    scriptSnapshot: ts.IScriptSnapshot,
    version: string,
    scriptKind?: ts.ScriptKind,
    sourceFileOptions?: ts.CreateSourceFileOptions | ts.ScriptTarget,
  ): ts.SourceFile {
    if (typeof sourceFileOptions === 'object') {
      this.#acquisitions.set(sourceFileOptions.impliedNodeFormat, {
        host: compilationSettingsOrHost,
        key,
        options: sourceFileOptions,
      });
    }
    return this.#registry.acquireDocumentWithKey(
      fileName,
      path,
      compilationSettingsOrHost,
      key,
      scriptSnapshot,
      version,
      scriptKind,
      sourceFileOptions,
    );
  }

  updateDocument(...parameters: Parameters<ts.DocumentRegistry['updateDocument']>): ts.SourceFile {
    return this.#registry.updateDocument(...parameters);
  }

  updateDocumentWithKey(
    ...parameters: Parameters<ts.DocumentRegistry['updateDocumentWithKey']>
  ): ts.SourceFile {
    return this.#registry.updateDocumentWithKey(...parameters);
  }

  getKeyForCompilationSettings(settings: ts.CompilerOptions): ts.DocumentRegistryBucketKey {
    return this.#registry.getKeyForCompilationSettings(settings);
  }

  releaseDocument(
    fileName: string,
    compilationSettings: ts.CompilerOptions,
    scriptKind?: ts.ScriptKind,
    impliedNodeFormat?: ts.ResolutionMode,
  ): void {
    this.#registry.releaseDocument(
      fileName,
      compilationSettings,
      scriptKind as ts.ScriptKind,
      impliedNodeFormat,
    );
  }

  releaseDocumentWithKey(
    path: ts.Path,
    key: ts.DocumentRegistryBucketKey,
    scriptKind?: ts.ScriptKind,
    impliedNodeFormat?: ts.ResolutionMode,
  ): void {
    this.#registry.releaseDocumentWithKey(path, key, scriptKind as ts.ScriptKind, impliedNodeFormat);
  }

  reportStats(): string {
    return this.#registry.reportStats();
  }
}
