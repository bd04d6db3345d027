import type { ExploreRepositoryName } from './explore-repositories.js';

/**
 * One question of the exploration eval: what a developer would ask about a repository, and the
 * files a good answer must name. Answers were written by reading the code, not by running a model.
 */
export interface ExploreQuestion {
  /** Unique, kebab-case. */
  readonly id: string;
  /** The repository asked about; {@link resolveExploreRepository} finds its folder. */
  readonly repository: ExploreRepositoryName;
  /** The question in a developer's words; it does not name the expected files. */
  readonly question: string;
  /** Repo-relative paths a good answer must name: the 1 to 4 files where the answer lives. */
  readonly expectedFiles: readonly string[];
  /** Repo-relative paths that are fine to name but not required (type declarations, barrels, callers). */
  readonly acceptableFiles?: readonly string[];
  /** What kind of question it is: `where-defined`, `how-it-works`, `error-handling`, `config`, ... */
  readonly tags: readonly string[];
  /** What in the expected files answers the question, so a reviewer can check it. */
  readonly why: string;
  /** A literal that appears in the first expected file; the eval's tests check it is still there. */
  readonly mustContain?: string;
}

/**
 * The questions of the exploration eval: over the installed `axios` package (its `lib/` sources)
 * and the small code-index fixtures of this repository. Paths are relative to the repository
 * folder that {@link resolveExploreRepository} returns.
 */
export const exploreQuestions: readonly ExploreQuestion[] = [
  // axios: the request pipeline
  {
    id: 'axios-interceptor-order',
    repository: 'axios',
    question:
      'If I register two request interceptors, which one runs first, and where is that order decided?',
    expectedFiles: ['lib/core/Axios.js', 'lib/defaults/transitional.js'],
    acceptableFiles: ['lib/core/InterceptorManager.js', 'index.d.ts', 'index.d.cts'],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/core/Axios.js: _request() unshifts request interceptors (last registered runs first) when transitional.legacyInterceptorReqResOrdering is set; lib/defaults/transitional.js sets it to true',
    mustContain: 'requestInterceptorChain.unshift(interceptor.fulfilled, interceptor.rejected)',
  },
  {
    id: 'axios-interceptor-eject',
    repository: 'axios',
    question:
      'How do I remove an interceptor I added earlier, and what is the number that adding it returns?',
    expectedFiles: ['lib/core/InterceptorManager.js'],
    acceptableFiles: ['lib/core/Axios.js', 'index.d.ts', 'index.d.cts'],
    tags: ['how-it-works'],
    why: 'lib/core/InterceptorManager.js: use() returns an id from internals.nextId; eject(id) nulls that handler slot',
    mustContain: 'eject(id) {',
  },
  {
    id: 'axios-request-pipeline',
    repository: 'axios',
    question:
      'What happens between calling axios.get() and the adapter sending the request: which steps run, in what order?',
    expectedFiles: ['lib/core/Axios.js', 'lib/core/dispatchRequest.js'],
    acceptableFiles: [
      'lib/core/mergeConfig.js',
      'lib/core/transformData.js',
      'lib/adapters/adapters.js',
      'lib/core/InterceptorManager.js',
      'lib/axios.js',
    ],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/core/Axios.js: request()/_request() merge config, build headers, run request interceptors, then dispatchRequest; lib/core/dispatchRequest.js: transformRequest, getAdapter, adapter(config), transformResponse',
    mustContain: 'config = mergeConfig(this.defaults, config);',
  },
  {
    id: 'axios-method-shorthands',
    repository: 'axios',
    question: 'Where do the shorthand methods like get, post and postForm come from?',
    expectedFiles: ['lib/core/Axios.js'],
    acceptableFiles: ['lib/core/methodList.js', 'lib/axios.js', 'index.d.ts', 'index.d.cts'],
    tags: ['where-defined'],
    why: "lib/core/Axios.js: forEach over ['delete','get','head','options'] and ['post','put','patch','query'] assigns Axios.prototype[method] and Axios.prototype[method + 'Form']",
    mustContain: "Axios.prototype[method + 'Form'] = generateHTTPMethod(true);",
  },
  {
    id: 'axios-create-instance',
    repository: 'axios',
    question:
      'How does axios.create() build a new instance, and why can that instance be called as a function and still have .get and .post?',
    expectedFiles: ['lib/axios.js'],
    acceptableFiles: [
      'lib/core/Axios.js',
      'lib/helpers/bind.js',
      'lib/utils.js',
      'lib/core/mergeConfig.js',
      'index.js',
    ],
    tags: ['how-it-works'],
    why: 'lib/axios.js: createInstance() binds Axios.prototype.request to a new Axios context, copies the prototype and context onto it, and create() calls createInstance(mergeConfig(defaultConfig, instanceConfig))',
    mustContain: 'function createInstance(defaultConfig)',
  },
  {
    id: 'axios-merge-config',
    repository: 'axios',
    question:
      'When an instance has defaults and I pass a config to one request, which options are replaced and which are deep-merged?',
    expectedFiles: ['lib/core/mergeConfig.js'],
    acceptableFiles: ['lib/core/Axios.js', 'lib/utils.js'],
    tags: ['how-it-works', 'config'],
    why: 'lib/core/mergeConfig.js: mergeMap picks a strategy per key (valueFromConfig2 for url/method/data, defaultToConfig2 for most, mergeHeaders, mergeParams); other keys use mergeDeepProperties',
    mustContain: 'const mergeMap = {',
  },
  // axios: adapters and platform
  {
    id: 'axios-default-adapter-choice',
    repository: 'axios',
    question:
      "When I don't configure an adapter, how does axios choose between XMLHttpRequest, Node's http module and fetch?",
    expectedFiles: ['lib/defaults/index.js', 'lib/adapters/adapters.js'],
    acceptableFiles: [
      'lib/adapters/xhr.js',
      'lib/adapters/http.js',
      'lib/adapters/fetch.js',
      'lib/core/dispatchRequest.js',
    ],
    tags: ['how-it-works', 'config', 'cross-file'],
    why: "lib/defaults/index.js: adapter: ['xhr', 'http', 'fetch']; lib/adapters/adapters.js: getAdapter() takes the first one that is a function (xhr is false without XMLHttpRequest, http needs process)",
    mustContain: "adapter: ['xhr', 'http', 'fetch'],",
  },
  {
    id: 'axios-no-suitable-adapter',
    repository: 'axios',
    question:
      "What error do I get if I ask for an adapter name axios doesn't know, or if none of the adapters I listed works in my environment?",
    expectedFiles: ['lib/adapters/adapters.js'],
    acceptableFiles: ['lib/core/AxiosError.js', 'lib/core/dispatchRequest.js'],
    tags: ['error-handling'],
    why: "lib/adapters/adapters.js: getAdapter() throws AxiosError(`Unknown adapter '${id}'`) and 'There is no suitable adapter to dispatch the request' with ERR_NOT_SUPPORT",
    mustContain: 'There is no suitable adapter to dispatch the request',
  },
  {
    id: 'axios-platform-detection',
    repository: 'axios',
    question:
      'How does axios tell whether it runs in Node or in a browser, and how do browser bundles avoid loading the Node-only code?',
    expectedFiles: ['package.json', 'lib/platform/index.js', 'lib/platform/common/utils.js'],
    acceptableFiles: [
      'lib/platform/node/index.js',
      'lib/platform/browser/index.js',
      'lib/helpers/null.js',
      'lib/adapters/http.js',
      'lib/adapters/xhr.js',
    ],
    tags: ['config', 'how-it-works', 'cross-file'],
    why: 'package.json: the browser field maps ./lib/platform/node/index.js to ./lib/platform/browser/index.js and lib/adapters/http.js to lib/helpers/null.js; lib/platform/index.js spreads node platform and common utils; lib/platform/common/utils.js computes hasBrowserEnv/hasStandardBrowserEnv',
    mustContain: '"./lib/platform/node/index.js": "./lib/platform/browser/index.js"',
  },
  {
    id: 'axios-http2',
    repository: 'axios',
    question:
      'Can axios use HTTP/2 in Node, how do I turn it on, and are connections reused between requests?',
    expectedFiles: ['lib/adapters/http.js', 'lib/helpers/Http2Sessions.js'],
    acceptableFiles: ['index.d.ts', 'index.d.cts'],
    tags: ['how-it-works', 'config', 'cross-file'],
    why: "lib/adapters/http.js: own('httpVersion') (1 or 2) and http2Options select the http2 transport; lib/helpers/Http2Sessions.js: getSession() reuses an open session per authority with equal options",
    mustContain: "let httpVersion = own('httpVersion');",
  },
  {
    id: 'axios-user-agent',
    repository: 'axios',
    question:
      'What User-Agent header does axios send from Node, and where does the version number in it come from?',
    expectedFiles: ['lib/adapters/http.js', 'lib/env/data.js'],
    acceptableFiles: ['lib/adapters/fetch.js', 'package.json'],
    tags: ['where-defined', 'cross-file'],
    why: "lib/adapters/http.js: headers.set('User-Agent', 'axios/' + VERSION, false); lib/env/data.js: export const VERSION",
    mustContain: "headers.set('User-Agent', 'axios/' + VERSION, false);",
  },
  // axios: errors and cancellation
  {
    id: 'axios-status-rejection',
    repository: 'axios',
    question:
      'Which HTTP status codes make an axios request reject instead of resolve, and where is that decided?',
    expectedFiles: ['lib/core/settle.js', 'lib/defaults/index.js'],
    acceptableFiles: [
      'lib/core/AxiosError.js',
      'lib/adapters/http.js',
      'lib/adapters/xhr.js',
      'lib/adapters/fetch.js',
    ],
    tags: ['error-handling', 'config', 'cross-file'],
    why: 'lib/core/settle.js: rejects with ERR_BAD_REQUEST (4xx) or ERR_BAD_RESPONSE unless validateStatus(status); lib/defaults/index.js: validateStatus is status >= 200 && status < 300',
    mustContain: 'Request failed with status code',
  },
  {
    id: 'axios-error-codes',
    repository: 'axios',
    question: 'Where are the error codes such as ERR_BAD_REQUEST, ECONNABORTED and ERR_CANCELED defined?',
    expectedFiles: ['lib/core/AxiosError.js'],
    acceptableFiles: ['index.d.ts', 'index.d.cts'],
    tags: ['where-defined', 'error-handling'],
    why: "lib/core/AxiosError.js: AxiosError.ERR_BAD_REQUEST = 'ERR_BAD_REQUEST' and the other static codes after the class",
    mustContain: "AxiosError.ERR_BAD_REQUEST = 'ERR_BAD_REQUEST';",
  },
  {
    id: 'axios-error-redaction',
    repository: 'axios',
    question: 'How can I keep secrets such as API keys out of an axios error when I log it as JSON?',
    expectedFiles: ['lib/core/AxiosError.js'],
    acceptableFiles: ['lib/core/buildFullPath.js', 'index.d.ts', 'index.d.cts'],
    tags: ['error-handling', 'config'],
    why: "lib/core/AxiosError.js: toJSON() passes the config through redactConfig() when config.redact lists keys, replacing their values with REDACTED ('[REDACTED ****]')",
    mustContain: 'redactConfig(config, redactKeys)',
  },
  {
    id: 'axios-network-error-browser',
    repository: 'axios',
    question:
      'In the browser, what error does axios reject with when the request fails at the network level and no response arrives?',
    expectedFiles: ['lib/adapters/xhr.js'],
    acceptableFiles: ['lib/adapters/fetch.js', 'lib/core/AxiosError.js'],
    tags: ['error-handling'],
    why: "lib/adapters/xhr.js: request.onerror rejects with new AxiosError(msg || 'Network Error', AxiosError.ERR_NETWORK, config, request)",
    mustContain: 'AxiosError.ERR_NETWORK, config, request',
  },
  {
    id: 'axios-timeout-node',
    repository: 'axios',
    question: 'In Node, where is the request timeout enforced, and which error code do I get when it fires?',
    expectedFiles: ['lib/adapters/http.js'],
    acceptableFiles: ['lib/core/AxiosError.js', 'lib/defaults/transitional.js', 'lib/defaults/index.js'],
    tags: ['error-handling', 'how-it-works'],
    why: "lib/adapters/http.js: req.setTimeout(timeout, handleTimeout) rejects with 'timeout of Nms exceeded', ECONNABORTED, or ETIMEDOUT when transitional.clarifyTimeoutError is set",
    mustContain: 'transitional.clarifyTimeoutError ? AxiosError.ETIMEDOUT : AxiosError.ECONNABORTED',
  },
  {
    id: 'axios-fetch-timeout-and-signal',
    repository: 'axios',
    question:
      'With the fetch adapter, how are the timeout option and my own AbortSignal combined into one abort?',
    expectedFiles: ['lib/helpers/composeSignals.js', 'lib/adapters/fetch.js'],
    acceptableFiles: ['lib/cancel/CanceledError.js', 'lib/core/AxiosError.js', 'lib/cancel/CancelToken.js'],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/helpers/composeSignals.js: one AbortController aborted by the first signal or by a timer with an ETIMEDOUT AxiosError; lib/adapters/fetch.js calls composeSignals([signal, cancelToken && cancelToken.toAbortSignal()], timeout)',
    mustContain: 'onabort(new AxiosError(`timeout of ${timeout}ms exceeded`, AxiosError.ETIMEDOUT));',
  },
  {
    id: 'axios-cancel-token',
    repository: 'axios',
    question:
      'How does the older CancelToken API cancel a request, and what does the cancelled request reject with?',
    expectedFiles: ['lib/cancel/CancelToken.js', 'lib/cancel/CanceledError.js'],
    acceptableFiles: [
      'lib/core/dispatchRequest.js',
      'lib/cancel/isCancel.js',
      'lib/axios.js',
      'lib/adapters/xhr.js',
      'lib/adapters/http.js',
      'lib/adapters/fetch.js',
    ],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/cancel/CancelToken.js: the executor cancel() sets token.reason = new CanceledError(...) and resolves the promise listeners subscribe to; lib/cancel/CanceledError.js: an AxiosError with code ERR_CANCELED',
    mustContain: 'token.reason = new CanceledError(message, config, request);',
  },
  {
    id: 'axios-is-cancel',
    repository: 'axios',
    question: 'How can my code tell that a rejected request was cancelled on purpose rather than failed?',
    expectedFiles: ['lib/cancel/isCancel.js', 'lib/cancel/CanceledError.js'],
    acceptableFiles: ['lib/axios.js', 'index.js', 'index.d.ts', 'index.d.cts', 'lib/core/AxiosError.js'],
    tags: ['error-handling', 'cross-file'],
    why: 'lib/cancel/isCancel.js: returns !!(value && value.__CANCEL__); lib/cancel/CanceledError.js sets this.__CANCEL__ = true',
    mustContain: 'value.__CANCEL__',
  },
  {
    id: 'axios-aborted-before-dispatch',
    repository: 'axios',
    question:
      'If the AbortSignal I pass is already aborted when the request is about to go out, does axios still call the adapter?',
    expectedFiles: ['lib/core/dispatchRequest.js'],
    acceptableFiles: ['lib/cancel/CanceledError.js', 'lib/cancel/CancelToken.js'],
    tags: ['error-handling', 'how-it-works'],
    why: 'lib/core/dispatchRequest.js: throwIfCancellationRequested(config) throws new CanceledError(null, config) when config.signal.aborted, before getAdapter() and adapter(config)',
    mustContain: 'if (config.signal && config.signal.aborted) {',
  },
  // axios: data, headers and URLs
  {
    id: 'axios-json-request-body',
    repository: 'axios',
    question:
      'When I post a plain object, where is it turned into a JSON string and the Content-Type header set?',
    expectedFiles: ['lib/defaults/index.js'],
    acceptableFiles: ['lib/core/transformData.js', 'lib/core/dispatchRequest.js', 'lib/core/AxiosHeaders.js'],
    tags: ['how-it-works'],
    why: "lib/defaults/index.js: transformRequest sets headers.setContentType('application/json', false) and returns stringifySafely(data) for object payloads",
    mustContain: 'return stringifySafely(data);',
  },
  {
    id: 'axios-invalid-json-response',
    repository: 'axios',
    question:
      'If the server answers with broken JSON, does the request fail or do I get the raw text, and can I change that?',
    expectedFiles: ['lib/defaults/index.js', 'lib/defaults/transitional.js'],
    acceptableFiles: ['lib/core/dispatchRequest.js', 'lib/core/transformData.js', 'lib/core/AxiosError.js'],
    tags: ['error-handling', 'config', 'cross-file'],
    why: "lib/defaults/index.js: transformResponse JSON.parse()s and only throws ERR_BAD_RESPONSE when strictJSONParsing (silentJSONParsing off and responseType 'json'); lib/defaults/transitional.js: silentJSONParsing: true",
    mustContain: 'const strictJSONParsing = !silentJSONParsing && JSONRequested;',
  },
  {
    id: 'axios-default-accept-header',
    repository: 'axios',
    question:
      'What Accept header does axios send by default, and where would I change the defaults for every request?',
    expectedFiles: ['lib/defaults/index.js'],
    acceptableFiles: ['lib/core/Axios.js', 'lib/axios.js'],
    tags: ['config', 'where-defined'],
    why: "lib/defaults/index.js: headers.common.Accept is 'application/json, text/plain, */*' in the defaults object the default instance is created from",
    mustContain: "Accept: 'application/json, text/plain, */*',",
  },
  {
    id: 'axios-header-case',
    repository: 'axios',
    question:
      'Why does reading a header work whatever its case, say content-type versus Content-Type? Where is that handled?',
    expectedFiles: ['lib/core/AxiosHeaders.js'],
    acceptableFiles: ['lib/utils.js', 'lib/helpers/parseHeaders.js'],
    tags: ['how-it-works'],
    why: 'lib/core/AxiosHeaders.js: set()/get()/has() normalize the name with normalizeHeader() and look the key up with utils.findKey, case-insensitively',
    mustContain: 'const lHeader = normalizeHeader(_header);',
  },
  {
    id: 'axios-duplicate-response-headers',
    repository: 'axios',
    question:
      'When a raw response carries the same header twice, like two Set-Cookie lines, how are the values combined?',
    expectedFiles: ['lib/helpers/parseHeaders.js'],
    acceptableFiles: ['lib/core/AxiosHeaders.js', 'lib/adapters/xhr.js'],
    tags: ['how-it-works'],
    why: "lib/helpers/parseHeaders.js: set-cookie values are collected into an array, headers in ignoreDuplicateOf keep the first value, others are joined with ', '",
    mustContain: 'const ignoreDuplicateOf = utils.toObjectSet([',
  },
  {
    id: 'axios-base-url',
    repository: 'axios',
    question: 'How is baseURL joined with the URL of a request, and when is baseURL ignored?',
    expectedFiles: [
      'lib/core/buildFullPath.js',
      'lib/helpers/combineURLs.js',
      'lib/helpers/isAbsoluteURL.js',
    ],
    acceptableFiles: ['lib/helpers/resolveConfig.js', 'lib/adapters/http.js', 'lib/core/Axios.js'],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/core/buildFullPath.js: combines only when the URL is not absolute or allowAbsoluteUrls === false; lib/helpers/combineURLs.js joins with one slash; lib/helpers/isAbsoluteURL.js tests for scheme:// or //',
    mustContain: 'if (baseURL && (isRelativeUrl || allowAbsoluteUrls === false)) {',
  },
  {
    id: 'axios-params-serializer',
    repository: 'axios',
    question:
      'How are the params of a request encoded into the query string, and how do I plug in my own serializer?',
    expectedFiles: ['lib/helpers/buildURL.js'],
    acceptableFiles: [
      'lib/helpers/AxiosURLSearchParams.js',
      'lib/core/Axios.js',
      'lib/helpers/toFormData.js',
    ],
    tags: ['how-it-works', 'config'],
    why: 'lib/helpers/buildURL.js: uses paramsSerializer.serialize when given, else AxiosURLSearchParams with encode(); strips the hash and appends ? or &',
    mustContain: 'serializedParams = serializeFn(params, _options);',
  },
  {
    id: 'axios-xsrf-token',
    repository: 'axios',
    question:
      'In the browser, when does axios attach the XSRF token header, and where does it read the token from?',
    expectedFiles: ['lib/helpers/resolveConfig.js', 'lib/helpers/cookies.js'],
    acceptableFiles: [
      'lib/helpers/isURLSameOrigin.js',
      'lib/defaults/index.js',
      'lib/adapters/xhr.js',
      'lib/adapters/fetch.js',
    ],
    tags: ['how-it-works', 'config', 'cross-file'],
    why: 'lib/helpers/resolveConfig.js: in a standard browser env, when withXSRFToken is true or the URL is same-origin, reads xsrfCookieName via cookies.read() and sets xsrfHeaderName; lib/helpers/cookies.js reads document.cookie',
    mustContain: 'const shouldSendXSRF =',
  },
  {
    id: 'axios-basic-auth-browser',
    repository: 'axios',
    question:
      'For browser requests, how is the auth option with a username and password turned into an Authorization header?',
    expectedFiles: ['lib/helpers/resolveConfig.js'],
    acceptableFiles: ['lib/adapters/xhr.js', 'lib/adapters/fetch.js'],
    tags: ['how-it-works'],
    why: "lib/helpers/resolveConfig.js: headers.set('Authorization', 'Basic ' + btoa(username + ':' + encodeUTF8(password)))",
    mustContain: "'Authorization',",
  },
  {
    id: 'axios-form-data-nesting-limit',
    repository: 'axios',
    question:
      'What stops the conversion of an object to multipart form data from recursing forever on deeply nested or circular objects?',
    expectedFiles: ['lib/helpers/toFormData.js'],
    acceptableFiles: ['lib/helpers/formDataToJSON.js', 'lib/core/AxiosError.js'],
    tags: ['error-handling'],
    why: "lib/helpers/toFormData.js: throws ERR_FORM_DATA_DEPTH_EXCEEDED past maxDepth (DEFAULT_FORM_DATA_MAX_DEPTH = 100) and 'Circular reference detected in ...'",
    mustContain: 'Circular reference detected in',
  },
  // axios: Node transport
  {
    id: 'axios-proxy-environment',
    repository: 'axios',
    question:
      'How does axios in Node pick up proxy settings from environment variables like HTTP_PROXY and NO_PROXY?',
    expectedFiles: ['lib/adapters/http.js', 'lib/helpers/shouldBypassProxy.js'],
    acceptableFiles: ['index.d.ts', 'index.d.cts'],
    tags: ['config', 'how-it-works', 'cross-file'],
    why: 'lib/adapters/http.js: setProxy() uses getProxyForUrl() from proxy-from-env when no proxy is configured, unless shouldBypassProxy(location); lib/helpers/shouldBypassProxy.js reads no_proxy/NO_PROXY',
    mustContain: "import { getProxyForUrl } from 'proxy-from-env';",
  },
  {
    id: 'axios-response-decompression',
    repository: 'axios',
    question:
      'Which compressed response encodings does axios decompress in Node, and how do I turn that off?',
    expectedFiles: ['lib/adapters/http.js'],
    acceptableFiles: ['lib/helpers/ZlibHeaderTransformStream.js', 'lib/defaults/index.js'],
    tags: ['how-it-works', 'config'],
    why: 'lib/adapters/http.js: unless decompress === false, a switch on content-encoding adds createUnzip (gzip, compress, deflate), createBrotliDecompress (br) or createZstdDecompress (zstd)',
    mustContain: 'streams.push(zlib.createBrotliDecompress(brotliOptions));',
  },
  {
    id: 'axios-redirect-credentials',
    repository: 'axios',
    question:
      'How does axios follow redirects in Node, and what happens to my Authorization header when a redirect goes to another origin?',
    expectedFiles: ['lib/adapters/http.js'],
    acceptableFiles: ['lib/core/mergeConfig.js', 'index.d.ts', 'index.d.cts'],
    tags: ['how-it-works', 'error-handling'],
    why: 'lib/adapters/http.js: follow-redirects transports (maxRedirects); dispatchBeforeRedirect() strips authorization and cookie headers and options.auth when !isSameOriginRedirect',
    mustContain: "stripMatchingHeaders(options.headers, new Set(['authorization', 'cookie']));",
  },
  {
    id: 'axios-max-content-length',
    repository: 'axios',
    question: 'What happens in Node when a response body is larger than the maxContentLength I configured?',
    expectedFiles: ['lib/adapters/http.js'],
    acceptableFiles: ['lib/adapters/fetch.js', 'lib/core/AxiosError.js', 'lib/defaults/index.js'],
    tags: ['error-handling', 'config'],
    why: "lib/adapters/http.js: rejects with AxiosError('maxContentLength size of N exceeded', ERR_BAD_RESPONSE) while streaming the response (and for data: URLs)",
    mustContain: "'maxContentLength size of ' + maxContentLength + ' exceeded',",
  },
  {
    id: 'axios-option-validation',
    repository: 'axios',
    question:
      'Which code warns me when I write baseUrl instead of baseURL, and where are options like transitional checked?',
    expectedFiles: ['lib/helpers/validator.js', 'lib/core/Axios.js'],
    acceptableFiles: ['lib/core/AxiosError.js'],
    tags: ['config', 'error-handling', 'cross-file'],
    why: "lib/helpers/validator.js: validators.spelling() warns '<opt> is likely a misspelling of <correct>', assertOptions() throws ERR_BAD_OPTION(_VALUE); lib/core/Axios.js: _request() calls assertOptions with baseUrl: validators.spelling('baseURL')",
    mustContain: 'is likely a misspelling of',
  },

  // Fixture: commonjs
  {
    id: 'commonjs-get-first-index-definition',
    repository: 'commonjs',
    question: 'Where is getFirstIndex defined, and which module re-exports it for the entry script?',
    expectedFiles: ['lib/utils.js', 'lib/index.js'],
    acceptableFiles: ['app.js'],
    tags: ['where-defined', 'cross-file'],
    why: 'lib/utils.js: function getFirstIndex(list) exported in module.exports; lib/index.js re-exports it as getFirstIndex: utils.getFirstIndex, which app.js requires from ./lib',
    mustContain: 'function getFirstIndex(list)',
  },
  {
    id: 'commonjs-get-first-index-callers',
    repository: 'commonjs',
    question: 'Which code calls getFirstIndex, counting calls made through another name?',
    expectedFiles: ['lib/consumer.js', 'lib/jsdoc-user.js', 'lib/renamed.js', 'app.js'],
    acceptableFiles: ['lib/utils.js', 'lib/index.js'],
    tags: ['what-calls', 'cross-file'],
    why: 'lib/consumer.js: getFirstIndex(list) and utils.getFirstIndex(list); lib/jsdoc-user.js: pick = utils.getFirstIndex, pick([...]); lib/renamed.js: { getFirstIndex: first }, first([]); app.js: getFirstIndex([1])',
    mustContain: 'return getFirstIndex(list);',
  },
  // Fixture: esm
  {
    id: 'esm-queue-definition',
    repository: 'esm',
    question: 'Where is the Queue class defined, and how can callers get a queue without writing new?',
    expectedFiles: ['lib/queue.mjs'],
    acceptableFiles: ['lib/index.mjs', 'lib/helpers.mjs', 'lib/alias-user.mjs', 'main.mjs'],
    tags: ['where-defined'],
    why: 'lib/queue.mjs: export default class Queue and export const createQueue = () => new Queue()',
    mustContain: 'export const createQueue = () => new Queue();',
  },
  {
    id: 'esm-drain-path',
    repository: 'esm',
    question: 'What does the drain helper actually check, and how does the entry script reach it?',
    expectedFiles: ['lib/helpers.mjs', 'lib/index.mjs', 'main.mjs'],
    acceptableFiles: ['lib/queue.mjs', 'package.json'],
    tags: ['how-it-works', 'cross-file'],
    why: 'lib/helpers.mjs: drain() returns queue instanceof Queue; lib/index.mjs: re-exports the helpers module as the namespace helpers (export * as helpers); main.mjs: helpers.drain(queue)',
    mustContain: 'return queue instanceof Queue;',
  },
  // Fixture: folder-index
  {
    id: 'folder-index-widget-count',
    repository: 'folder-index',
    question: 'The widgets are imported from a folder path; which file does widgetCount actually come from?',
    expectedFiles: ['src/widgets/index.ts'],
    acceptableFiles: ['src/main.ts', 'src/widgets/button.ts'],
    tags: ['where-defined'],
    why: "src/widgets/index.ts: export const widgetCount = 2, reached through the folder imports './widgets/' and './'",
    mustContain: 'export const widgetCount = 2;',
  },
  {
    id: 'folder-index-parse-types',
    repository: 'folder-index',
    question: 'Where is the type of parse declared, separately from its JavaScript implementation?',
    expectedFiles: ['types/index.d.ts', 'types/index.js'],
    acceptableFiles: ['types/extra.d.ts'],
    tags: ['where-defined', 'cross-file'],
    why: 'types/index.d.ts: export declare function parse(text: string): Node; types/index.js: the implementation export function parse(text)',
    mustContain: 'export declare function parse(text: string): Node;',
  },
  // Fixture: monorepo
  {
    id: 'monorepo-utils-path-alias',
    repository: 'monorepo',
    question: "How does the app's import from '~utils/strings' resolve to a source file?",
    expectedFiles: ['tsconfig.base.json', 'packages/shared/src/utils/strings.ts'],
    acceptableFiles: ['packages/app/tsconfig.json', 'packages/app/src/main.ts'],
    tags: ['config', 'cross-file'],
    why: 'tsconfig.base.json: paths "~utils/*" -> ./packages/shared/src/utils/*, extended by packages/app/tsconfig.json; packages/shared/src/utils/strings.ts: titleCase',
    mustContain: '"~utils/*": ["./packages/shared/src/utils/*"]',
  },
  {
    id: 'monorepo-legacy-bare-import',
    repository: 'monorepo',
    question: "In the legacy package, why does importing add from 'lib/math' work without a relative path?",
    expectedFiles: ['packages/legacy/tsconfig.json', 'packages/legacy/src/lib/math.ts'],
    acceptableFiles: ['packages/legacy/src/main.ts'],
    tags: ['config', 'cross-file'],
    why: 'packages/legacy/tsconfig.json: "baseUrl": "./src", so lib/math is packages/legacy/src/lib/math.ts, which defines add()',
    mustContain: '"baseUrl": "./src"',
  },
  {
    id: 'monorepo-format-price-subpath',
    repository: 'monorepo',
    question:
      "Where is formatPrice implemented, and what lets the app import it from '@acme/core/format' as well as from '@acme/core'?",
    expectedFiles: ['packages/core/src/format.ts', 'packages/core/package.json'],
    acceptableFiles: [
      'packages/core/src/index.ts',
      'packages/app/src/main.ts',
      'packages/core/tsconfig.json',
    ],
    tags: ['where-defined', 'config', 'cross-file'],
    why: 'packages/core/src/format.ts: export function formatPrice; packages/core/package.json: exports "./format" next to "."; packages/core/src/index.ts re-exports it',
    mustContain: 'export function formatPrice(cents: number): string',
  },
  // Fixture: polyglot
  {
    id: 'polyglot-python-engine',
    repository: 'polyglot',
    question:
      'In the Python code, where is Engine defined, and how can the top-level script import it straight from the package?',
    expectedFiles: ['python/pkg/core.py', 'python/pkg/__init__.py'],
    acceptableFiles: ['python/app.py', 'python/pkg/cli.py'],
    tags: ['where-defined', 'python', 'cross-file'],
    why: "python/pkg/core.py: class Engine; python/pkg/__init__.py: from .core import Engine, run and __all__ = ['Engine', 'run']",
    mustContain: 'class Engine:',
  },
  {
    id: 'polyglot-go-cart-total',
    repository: 'polyglot',
    question: 'In the Go program, how is the total of a cart computed?',
    expectedFiles: ['go/internal/cart/total.go'],
    acceptableFiles: ['go/internal/cart/cart.go', 'go/main.go'],
    tags: ['how-it-works', 'go'],
    why: 'go/internal/cart/total.go: func Total(c *Cart) sums the quantities in c.Items',
    mustContain: 'func Total(c *Cart) int {',
  },
  {
    id: 'polyglot-rust-item-normalization',
    repository: 'polyglot',
    question: 'In the Rust crate, what happens to an item name when it is added to the store?',
    expectedFiles: ['rust/src/store.rs', 'rust/src/util.rs'],
    acceptableFiles: ['rust/src/lib.rs', 'rust/src/main.rs'],
    tags: ['how-it-works', 'rust', 'cross-file'],
    why: 'rust/src/store.rs: Store::add pushes normalize(item); rust/src/util.rs: normalize() trims and lowercases',
    mustContain: 'self.items.push(normalize(item));',
  },
  {
    id: 'polyglot-c-add-limit',
    repository: 'polyglot',
    question: 'In the C code, why can add(2, 5) never return more than 3?',
    expectedFiles: ['c/src/util.c', 'c/include/mylib/util.h'],
    acceptableFiles: ['c/src/main.c'],
    tags: ['how-it-works', 'c', 'cross-file'],
    why: 'c/src/util.c: add() returns clamp(left + right), and clamp caps at LIMIT; c/include/mylib/util.h: #define LIMIT 3',
    mustContain: 'return clamp(left + right);',
  },
  // Fixture: python-names
  {
    id: 'python-names-public-api',
    repository: 'python-names',
    question:
      'Which names does the tricky Python module declare as its public API, and where is helper defined?',
    expectedFiles: ['tricky.py'],
    tags: ['where-defined', 'python'],
    why: 'tricky.py: __all__ = ["Visible", "helper"] and def helper(first, *args, key=None, **kwargs)',
    mustContain: '__all__ = ["Visible", "helper"]',
  },
  // Fixture: shadowed-member
  {
    id: 'shadowed-member-store-read',
    repository: 'shadowed-member',
    question:
      'When Store.read() runs, does it call the reportObserved method or the imported function, and does anything get logged?',
    expectedFiles: ['src/store.ts', 'src/observe.ts'],
    tags: ['what-calls', 'cross-file'],
    why: "src/store.ts: read() returns this.reportObserved() (the method), which calls the imported reportObserved('store'); src/observe.ts: that function logs `observed ${name}`",
    mustContain: 'return this.reportObserved();',
  },
  // Fixture: tsx-library
  {
    id: 'tsx-library-swatch-background',
    repository: 'tsx-library',
    question: 'How does the Swatch component compute the CSS color it uses as its background?',
    expectedFiles: ['src/components/Swatch.tsx', 'src/color.ts'],
    acceptableFiles: ['src/spaces.ts', 'src/index.ts'],
    tags: ['how-it-works', 'cross-file'],
    why: 'src/components/Swatch.tsx: background: formatColorToCss(color), imported from ../color; src/color.ts: formatColorToCss returns rgb(red, green, blue)',
    mustContain: 'background: formatColorToCss(color)',
  },
  {
    id: 'tsx-library-palette-key',
    repository: 'tsx-library',
    question: 'Which formatColorToCss does the Palette component use to build the keys of its swatches?',
    expectedFiles: ['src/components/Palette.tsx'],
    acceptableFiles: ['src/components/Swatch.tsx', 'src/color.ts'],
    tags: ['what-calls', 'where-defined'],
    why: 'src/components/Palette.tsx: render() declares a local const formatColorToCss (a hex string) that shadows the one in color.ts, which Palette does not import as a value',
    mustContain: 'const formatColorToCss = (color: Color) =>',
  },
];
