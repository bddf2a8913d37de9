/** The content families the sidecar can turn into readable text; each has one handler. */
export type ContentKind = "html" | "markdown" | "json" | "csv" | "tsv" | "xml" | "yaml" | "code" | "text";
