export const root: string;
export function ensureDeps(): string;
export function projectEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export function runOrExit(command: string, args: string[]): void;
