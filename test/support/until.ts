/** Waits until `condition` holds, checking every 10 ms; throws after `timeoutMs` (every wait is bounded). */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for a condition`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
