/** The address of a `seller-server` started with its defaults: the base URL of every client, the CLI and the OpenAPI document when none is given. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
