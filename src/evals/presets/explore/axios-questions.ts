import { axiosIoQuestions } from './axios-io-questions.js';
import type { ExploreQuestion } from './explore-questions.js';

/** The exploration eval's questions over the installed `axios` package: its pipeline, adapters, errors and cancellation. */
const coreQuestions: readonly ExploreQuestion[] = [
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
];

/** The exploration eval's questions over the installed `axios` package (its `lib/` sources). */
export const axiosQuestions: readonly ExploreQuestion[] = [...coreQuestions, ...axiosIoQuestions];
