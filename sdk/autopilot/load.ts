/**
 * Reads an autopilot configuration file: `.json`, or `.yaml`/`.yml` (the `yaml` package, loaded on
 * first use), checked by `parseAutopilotConfig()`. Errors name the file and, for a wrong value,
 * its path in the file.
 */
import { AutopilotConfigError, parseAutopilotConfig, type AutopilotConfig } from './config.ts';

export async function loadAutopilotConfig(path: string): Promise<AutopilotConfig> {
  if (!/\.(json|ya?ml)$/i.test(path)) throw new AutopilotConfigError(path, [{ path: '(file)', message: 'name it .json, .yaml or .yml', check: 'fileName' }]);
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AutopilotConfigError(path, [code === 'ENOENT' ? { path: '(file)', message: 'no such file', check: 'noFile' } : { path: '(file)', message: `cannot be read (${code ?? String(error)})`, check: 'unreadable', values: { why: code ?? String(error) } }]);
  }
  let value: unknown;
  if (/\.ya?ml$/i.test(path)) {
    const { parse } = await import('yaml');
    try {
      value = parse(text, { prettyErrors: true, strict: true, uniqueKeys: true });
    } catch (error) {
      const why = (error as Error).message.split('\n')[0];
      throw new AutopilotConfigError(path, [{ path: '(file)', message: `not valid YAML: ${why}`, check: 'notYaml', values: { why } }]);
    }
  } else {
    try {
      value = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message;
      throw new AutopilotConfigError(path, [{ path: '(file)', message: `not valid JSON: ${why}`, check: 'notJson', values: { why } }]);
    }
  }
  return parseAutopilotConfig(value, path);
}
