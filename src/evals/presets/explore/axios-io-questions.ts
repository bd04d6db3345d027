import type { ExploreQuestion } from './explore-questions.js';

/** The exploration eval's questions over the installed `axios` package: data, headers, URLs and the Node transport. */
export const axiosIoQuestions: readonly ExploreQuestion[] = [
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
];
