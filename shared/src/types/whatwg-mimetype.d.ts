// whatwg-mimetype ships no types: the part of its API that content-type.ts uses.
declare module "whatwg-mimetype" {
  export class MIMEType {
    /** The parsed MIME type, or null for a string the WHATWG parser rejects. */
    static parse(string: string): MIMEType | null;
    readonly type: string;
    readonly subtype: string;
    readonly essence: string;
    readonly parameters: ReadonlyMap<string, string>;
  }
}
