// Types of scripts/cli-plugins.mjs, for the tests that bundle the CLI the way the build does.
import type { Plugin } from 'esbuild';

export const zodEnglishOnly: Plugin;
export const lazyChildProcess: Plugin;
