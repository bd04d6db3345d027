import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { serviceUnavailable } from './service-availability.js';

/** Debian's Chromium; playwright-core drives it and downloads nothing. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium, or returns why it cannot (outside CI the caller skips with that
 * reason; under `CI=true` `serviceUnavailable` throws, so the suite fails).
 */
export async function launchChromium(): Promise<{ browser: Browser } | { skip: string }> {
  if (!existsSync(chromiumPath)) {
    return { skip: serviceUnavailable('Chromium', `${chromiumPath} not found; apt-get install chromium`) };
  }
  try {
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      timeout: 30_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    return { browser };
  } catch (error) {
    return {
      skip: serviceUnavailable('Chromium', `launching ${chromiumPath} failed: ${(error as Error).message}`),
    };
  }
}
