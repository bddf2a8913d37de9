declare module "vitest" {
  export interface ProvidedContext {
    originUrl: string;
  }
}
export {};
