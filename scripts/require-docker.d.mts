export function requireDocker(command: string, otherwise?: string): void;
