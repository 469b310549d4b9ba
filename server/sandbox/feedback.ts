/** Sandbox: buyer reviews and questions. */
import { sandboxHandlers } from '../http/handlers.ts';

export const feedbackSandboxHandlers = sandboxHandlers({});
