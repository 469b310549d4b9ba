// `i18next-cli lint` (run by `npm test`): no hard-coded text for a person in cli/ (see
// scripts/i18n-lint-plugin.mjs), and every t() call's placeholders match the English catalogue.
import { defineConfig } from 'i18next-cli';
import { hardcodedStrings } from './scripts/i18n-lint-plugin.mjs';

/**
 * Files that hold no text for a person, each with why. A single line is excepted in place with
 * `// i18next-instrument-ignore-next-line: <why>`.
 */
const NOT_FOR_PEOPLE = {
  'cli/i18n/**': 'the message machinery itself (commander.ts matches commander\'s English messages to re-say them)',
  'cli/completion.ts': 'shell completion scripts: shell code, and candidates that are command and option names',
  'cli/main.ts': 'the entry point: no text',
  'cli/commands/mcp-guard.ts': 'what the MCP bridge answers an agent on stdout (JSON-RPC tool lists and refusals): machine output, as --json, never translated',
};

export default defineConfig({
  locales: ['en', 'ru'],
  extract: {
    input: ['cli/**/*.ts'],
    ignore: Object.keys(NOT_FOR_PEOPLE),
    output: 'cli/locales/{{language}}.json',
    primaryLanguage: 'en',
    functions: ['t'],
  },
  lint: { checkInterpolationParams: true },
  plugins: [hardcodedStrings()],
});
