/**
 * Called when a test's real service (Redis, PostgreSQL, Chromium) cannot be had. Outside CI the
 * test is skipped with the printed reason; under `CI=true` it fails, since `.ci/run` installs them.
 *
 * @returns the skip message, for `context.skip(message)` or `describe.skipIf`.
 * @throws {Error} under `CI=true`.
 */
export function serviceUnavailable(service: string, reason: string): string {
  const message = `${service} is not available (${reason})`;
  if (process.env['CI'] === 'true') {
    throw new Error(`${message}; under CI=true this is a failure: .ci/run installs it`);
  }
  console.warn(`skipped: ${message}`);
  return message;
}
