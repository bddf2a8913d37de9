import { mediaType } from "@edge-web/shared";
import { fileTypeFromBuffer } from "file-type";
import { fileExtension } from "../sniff/file-extension.ts";
import { hasSignature } from "../sniff/has-signature.ts";
import { SIGNATURES } from "../sniff/signatures.ts";
import { urlFileName } from "../sniff/url-file-name.ts";
import { bomEncoding } from "./bom.ts";
import type { ContentKind } from "./content-kind.ts";

export type DetectedType = { ok: true; kind: ContentKind; mime: string; language?: string } | { ok: false; message: string };

/** What one source of evidence says: a readable type, a document to convert, or binary data. */
type Finding =
  | { type: "text"; kind: ContentKind; mime: string; language?: string }
  | { type: "document"; name: string }
  | { type: "binary"; name: string };

const text = (kind: ContentKind, mime: string, language?: string): Finding =>
  language ? { type: "text", kind, mime, language } : { type: "text", kind, mime };
const code = (language: string, mime = "text/plain"): Finding => text("code", mime, language);

// ── Content-Type header ────────────────────────────────────────────────────────────────

/** Headers that say nothing about the content. */
const UNINFORMATIVE_TYPES = new Set(["application/octet-stream", "binary/octet-stream", "application/unknown"]);

const TYPES_BY_MIME = new Map<string, Finding>([
  ["text/html", text("html", "text/html")],
  ["application/xhtml+xml", text("html", "application/xhtml+xml")],
  ["text/markdown", text("markdown", "text/markdown")],
  ["text/x-markdown", text("markdown", "text/x-markdown")],
  ["application/json", text("json", "application/json")],
  ["text/json", text("json", "text/json")],
  ["text/csv", text("csv", "text/csv")],
  ["application/csv", text("csv", "application/csv")],
  ["text/tab-separated-values", text("tsv", "text/tab-separated-values")],
  ["text/xml", text("xml", "text/xml")],
  ["application/xml", text("xml", "application/xml")],
  ["application/yaml", text("yaml", "application/yaml")],
  ["application/x-yaml", text("yaml", "application/x-yaml")],
  ["text/yaml", text("yaml", "text/yaml")],
  ["text/x-yaml", text("yaml", "text/x-yaml")],
  ["text/plain", text("text", "text/plain")],
  // JSON Lines is not one JSON document; shown as text rather than failing the JSON parse.
  ["application/x-ndjson", text("text", "application/x-ndjson")],
  ["application/jsonl", text("text", "application/jsonl")],
  ["application/pdf", { type: "document", name: "a PDF document" }],
  ["application/x-pdf", { type: "document", name: "a PDF document" }],
  ["application/msword", { type: "document", name: "a Word document" }],
  ["application/rtf", { type: "document", name: "an RTF document" }],
  ["text/rtf", { type: "document", name: "an RTF document" }],
  ["application/epub+zip", { type: "document", name: "an EPUB e-book" }],
  ["message/rfc822", { type: "document", name: "an e-mail message" }],
  ["application/wasm", { type: "binary", name: "a WebAssembly module" }],
]);

const CODE_BY_MIME: Record<string, string> = {
  "application/javascript": "javascript",
  "application/x-javascript": "javascript",
  "application/ecmascript": "javascript",
  "text/javascript": "javascript",
  "text/ecmascript": "javascript",
  "text/jsx": "jsx",
  "application/typescript": "typescript",
  "application/x-typescript": "typescript",
  "text/typescript": "typescript",
  "text/x-typescript": "typescript",
  "text/x-python": "python",
  "text/x-script.python": "python",
  "application/x-python": "python",
  "text/css": "css",
  "text/x-c": "c",
  "text/x-csrc": "c",
  "text/x-chdr": "c",
  "text/x-c++": "cpp",
  "text/x-c++src": "cpp",
  "text/x-c++hdr": "cpp",
  "text/x-csharp": "csharp",
  "text/x-java": "java",
  "text/x-java-source": "java",
  "text/x-kotlin": "kotlin",
  "text/x-scala": "scala",
  "text/x-swift": "swift",
  "text/x-go": "go",
  "text/x-rust": "rust",
  "text/x-ruby": "ruby",
  "application/x-ruby": "ruby",
  "text/x-php": "php",
  "application/x-httpd-php": "php",
  "text/x-perl": "perl",
  "application/x-perl": "perl",
  "text/x-lua": "lua",
  "text/x-haskell": "haskell",
  "text/x-sh": "bash",
  "text/x-shellscript": "bash",
  "application/x-sh": "bash",
  "application/x-shellscript": "bash",
  "application/sql": "sql",
  "text/x-sql": "sql",
  "application/toml": "toml",
  "text/x-toml": "toml",
  "text/x-diff": "diff",
  "text/x-patch": "diff",
  "application/graphql": "graphql",
};

const OFFICE_MIME_PREFIXES: [string, string][] = [
  ["application/vnd.openxmlformats-officedocument.wordprocessingml.", "a Word document"],
  ["application/vnd.openxmlformats-officedocument.spreadsheetml.", "an Excel spreadsheet"],
  ["application/vnd.openxmlformats-officedocument.presentationml.", "a PowerPoint presentation"],
  ["application/vnd.ms-word", "a Word document"],
  ["application/vnd.ms-excel", "an Excel spreadsheet"],
  ["application/vnd.ms-powerpoint", "a PowerPoint presentation"],
  ["application/vnd.oasis.opendocument.", "an OpenDocument file"],
  ["application/vnd.apple.pages", "an Apple iWork document"],
  ["application/vnd.apple.numbers", "an Apple iWork document"],
  ["application/vnd.apple.keynote", "an Apple iWork document"],
];

const ARCHIVE_MIMES = new Set([
  "application/zip", "application/x-zip-compressed", "application/gzip", "application/x-gzip", "application/x-tar",
  "application/x-gtar", "application/x-7z-compressed", "application/x-rar-compressed", "application/vnd.rar",
  "application/x-bzip2", "application/x-xz", "application/zstd", "application/x-compress", "application/java-archive",
  "application/vnd.android.package-archive", "application/x-apple-diskimage", "application/x-iso9660-image",
]);

const EXECUTABLE_MIMES = new Set([
  "application/x-executable", "application/x-msdownload", "application/x-msdos-program", "application/x-dosexec",
  "application/vnd.microsoft.portable-executable", "application/x-mach-binary", "application/x-elf",
  "application/x-sharedlib", "application/x-msi", "application/java-vm",
]);

const FONT_MIMES = new Set([
  "application/font-woff", "application/font-woff2", "application/font-sfnt", "application/x-font-ttf",
  "application/x-font-otf", "application/x-font-woff", "application/vnd.ms-fontobject",
]);

const MEDIA_NAMES: [string, string][] = [
  ["image/", "an image"],
  ["audio/", "audio"],
  ["video/", "a video"],
  ["font/", "a font"],
];

/** The header's type, or undefined when it is missing or says nothing (octet-stream, unknown application/*). */
function fromMime(mime: string): Finding | undefined {
  if (UNINFORMATIVE_TYPES.has(mime)) return undefined;
  const known = TYPES_BY_MIME.get(mime);
  if (known) return known;
  const language = CODE_BY_MIME[mime];
  if (language) return code(language, mime);
  if (mime.endsWith("+json")) return text("json", mime);
  if (mime.endsWith("+xml")) return text("xml", mime); // rss+xml, atom+xml, svg+xml, rdf+xml …
  if (mime.endsWith("+yaml")) return text("yaml", mime);
  const office = OFFICE_MIME_PREFIXES.find(([prefix]) => mime.startsWith(prefix));
  if (office) return { type: "document", name: office[1] };
  if (ARCHIVE_MIMES.has(mime)) return { type: "binary", name: `an archive (${mime})` };
  if (EXECUTABLE_MIMES.has(mime)) return { type: "binary", name: `an executable (${mime})` };
  if (FONT_MIMES.has(mime)) return { type: "binary", name: `a font (${mime})` };
  const media = MEDIA_NAMES.find(([prefix]) => mime.startsWith(prefix));
  if (media) return { type: "binary", name: `${media[1]} (${mime})` };
  if (mime.startsWith("text/")) return text("text", mime);
  return undefined;
}

// ── URL path ───────────────────────────────────────────────────────────────────────────

const TYPES_BY_EXTENSION = new Map<string, Finding>();
const addExtensions = (extensions: string, finding: Finding): void => {
  for (const extension of extensions.split(" ")) TYPES_BY_EXTENSION.set(extension, finding);
};
addExtensions("html htm shtml", text("html", "text/html"));
addExtensions("xhtml", text("html", "application/xhtml+xml"));
addExtensions("md markdown mdown mkd mkdn mdx", text("markdown", "text/markdown"));
addExtensions("json geojson webmanifest ipynb har", text("json", "application/json"));
addExtensions("jsonld", text("json", "application/ld+json"));
addExtensions("csv", text("csv", "text/csv"));
addExtensions("tsv tab", text("tsv", "text/tab-separated-values"));
addExtensions("xml xsd xsl xslt rdf opml kml gpx wsdl xliff xlf plist", text("xml", "application/xml"));
addExtensions("rss", text("xml", "application/rss+xml"));
addExtensions("atom", text("xml", "application/atom+xml"));
addExtensions("svg", text("xml", "image/svg+xml"));
addExtensions("yaml yml", text("yaml", "application/yaml"));
addExtensions("txt text log rst adoc asciidoc org nfo srt vtt", text("text", "text/plain"));
addExtensions("js mjs cjs", code("javascript", "text/javascript"));
addExtensions("css", code("css", "text/css"));
const CODE_EXTENSIONS: Record<string, string> = {
  "ts mts cts": "typescript", tsx: "tsx", jsx: "jsx", "py pyw pyi": "python", rb: "ruby", go: "go", rs: "rust",
  java: "java", "kt kts": "kotlin", "c h": "c", "cc cpp cxx c++ hpp hh hxx h++ ino": "cpp", cs: "csharp",
  php: "php", "sh bash ksh": "bash", zsh: "zsh", fish: "fish", "bat cmd": "batch",
  swift: "swift", "scala sc": "scala", sql: "sql", scss: "scss", sass: "sass", less: "less", toml: "toml",
  "ini cfg conf properties": "ini", lua: "lua", r: "r", "pl pm": "perl", hs: "haskell", "ex exs": "elixir",
  "erl hrl": "erlang", "clj cljs cljc edn": "clojure", dart: "dart", vue: "vue", svelte: "svelte",
  "m mm": "objectivec", "fs fsx": "fsharp", "ml mli": "ocaml", elm: "elm", zig: "zig", nim: "nim", jl: "julia",
  "groovy gradle": "groovy", proto: "protobuf", "graphql gql": "graphql", "tf hcl": "hcl", "diff patch": "diff",
  vim: "vim", "asm s": "asm", sol: "solidity", cmake: "cmake", nix: "nix", dockerfile: "dockerfile",
  mk: "makefile", "lisp cl": "lisp", el: "elisp", "scm ss": "scheme", "jsonc json5": "json5", tex: "latex",
  bib: "bibtex", "ps1 psm1": "powershell", v: "verilog", vhd: "vhdl", tcl: "tcl", "f90 f95": "fortran",
  pas: "pascal", ada: "ada", cr: "crystal", d: "d", rkt: "racket", purs: "purescript", awk: "awk",
};
for (const [extensions, language] of Object.entries(CODE_EXTENSIONS)) addExtensions(extensions, code(language));

addExtensions("pdf", { type: "document", name: "a PDF document" });
addExtensions("doc docx docm dot dotx", { type: "document", name: "a Word document" });
addExtensions("xls xlsx xlsm xlsb", { type: "document", name: "an Excel spreadsheet" });
addExtensions("ppt pptx pptm pps ppsx", { type: "document", name: "a PowerPoint presentation" });
addExtensions("odt ods odp odg", { type: "document", name: "an OpenDocument file" });
addExtensions("rtf", { type: "document", name: "an RTF document" });
addExtensions("epub", { type: "document", name: "an EPUB e-book" });
addExtensions("eml", { type: "document", name: "an e-mail message" });
addExtensions("pages numbers", { type: "document", name: "an Apple iWork document" });
const BINARY_EXTENSIONS: [string, string][] = [
  ["zip gz tgz tar bz2 tbz2 xz txz zst 7z rar jar war apk dmg iso deb rpm whl cab", "an archive"],
  ["png jpg jpeg gif webp bmp ico tif tiff avif heic heif psd jxl", "an image"],
  ["mp3 wav ogg oga flac aac m4a opus mid midi weba", "audio"],
  ["mp4 m4v mov avi mkv webm flv wmv mpg mpeg 3gp ogv", "a video"],
  ["woff woff2 ttf otf eot", "a font"],
  ["wasm", "a WebAssembly module"],
  ["exe dll so dylib msi bin class pyc o", "an executable"],
];
for (const [extensions, name] of BINARY_EXTENSIONS) {
  for (const extension of extensions.split(" ")) TYPES_BY_EXTENSION.set(extension, { type: "binary", name: `${name} (.${extension})` });
}

/** Files known by their whole name rather than an extension. */
const CODE_FILE_NAMES: Record<string, string> = {
  dockerfile: "dockerfile", containerfile: "dockerfile", makefile: "makefile", gnumakefile: "makefile",
  "cmakelists.txt": "cmake", gemfile: "ruby", rakefile: "ruby", podfile: "ruby", vagrantfile: "ruby",
  brewfile: "ruby", jenkinsfile: "groovy", ".bashrc": "bash", ".zshrc": "zsh", ".profile": "bash",
};

function fromPath(url: string): Finding | undefined {
  const name = urlFileName(url)?.toLowerCase();
  if (name === undefined) return undefined;
  const language = CODE_FILE_NAMES[name] ?? (name.startsWith("dockerfile.") ? "dockerfile" : undefined);
  if (language) return code(language);
  return TYPES_BY_EXTENSION.get(fileExtension(name));
}

// ── Bytes ──────────────────────────────────────────────────────────────────────────────

const ZIP_ARCHIVE: Finding = { type: "binary", name: "a ZIP archive" };
const LEGACY_OFFICE: Finding = { type: "document", name: "a Microsoft Office document (legacy format)" };

/**
 * What the first bytes prove, when they prove a document or binary format (never a text type): file-type's
 * signatures, which also tell DOCX, XLSX, PPTX, OpenDocument and EPUB apart by the entries that open their ZIP.
 */
async function fromMagic(bytes: Uint8Array): Promise<Finding | undefined> {
  // Ours: file-type names the compound file only as application/x-cfb, not as the Office document it holds.
  if (hasSignature(bytes, SIGNATURES.compoundFile)) return LEGACY_OFFICE;
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return undefined;
  if (found.mime === "application/zip") return ZIP_ARCHIVE;
  const finding = fromMime(found.mime) ?? { type: "binary", name: `a .${found.ext} file (${found.mime})` };
  // Text formats (XML …) are sniffed from the content, where a header or extension can still outrank them.
  if (finding.type === "text") return undefined;
  // file-type takes a short signature prose can start with (MZ, BM, BZh, ID3) for its format: bytes that read as text are text.
  if (finding.type === "binary" && !looksBinary(bytes)) return undefined;
  return finding;
}

/** Bytes that never appear in text: C0 controls other than tab, newline, form feed, carriage return and escape (ISO-2022). */
function isBinaryControl(byte: number): boolean {
  return byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b;
}

/** Length of the valid UTF-8 sequence at i, 0 if invalid; a sequence cut off by the sample end counts as valid. */
function utf8SequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const lead = bytes[i] ?? 0;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  for (let k = 1; k < length && i + k < end; k++) {
    const next = bytes[i + k] ?? 0;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

/**
 * Binary by content: any NUL, more than 1% control bytes, or more than 30% bytes that are not valid UTF-8,
 * in the first 8 KiB. (Unlabeled legacy CJK text can trip the last test; such text almost always comes with a header.)
 */
function looksBinary(bytes: Uint8Array): boolean {
  if (bomEncoding(bytes)) return false;
  const end = Math.min(bytes.length, 8192);
  let controls = 0;
  let invalid = 0;
  for (let i = 0; i < end; ) {
    const byte = bytes[i] ?? 0;
    if (byte === 0) return true;
    if (byte < 0x80) {
      if (isBinaryControl(byte)) controls++;
      i++;
      continue;
    }
    const length = utf8SequenceLength(bytes, i, end);
    if (length === 0) {
      invalid++;
      i++;
    } else i += length;
  }
  return controls > end * 0.01 || invalid > end * 0.3;
}

const UNRECOGNISED_BINARY: Finding = { type: "binary", name: "binary data of an unrecognised format" };

function decodeStart(bytes: Uint8Array, length: number): string {
  return new TextDecoder(bomEncoding(bytes) ?? "utf-8").decode(bytes.subarray(0, length), { stream: true });
}

/** The type of unlabeled bytes: markup by its first tag, JSON if it parses, else text unless it looks binary. */
function fromContent(bytes: Uint8Array): Finding {
  let head = decodeStart(bytes, 1024).trimStart().toLowerCase();
  // Leading comments (<!-- saved from url=… -->) say nothing; look past them.
  while (head.startsWith("<!--")) {
    const end = head.indexOf("-->");
    head = end === -1 ? "" : head.slice(end + 3).trimStart();
  }
  if (/^<(?:!doctype html|html|head|body)[\s>]/.test(head)) return text("html", "text/html");
  if (head.startsWith("<?xml")) {
    return /<!doctype html|<html[\s>]/.test(head) ? text("html", "application/xhtml+xml") : text("xml", "application/xml");
  }
  if (/^<(?:rss|feed|rdf:rdf)[\s>]/.test(head)) return text("xml", "application/xml");
  if (head.startsWith("{") || head.startsWith("[")) {
    try {
      JSON.parse(decodeStart(bytes, bytes.length));
      return text("json", "application/json");
    } catch {
      // not JSON after all; fall through
    }
  }
  if (looksBinary(bytes)) return UNRECOGNISED_BINARY;
  return text("text", "text/plain");
}

// ── Decision ───────────────────────────────────────────────────────────────────────────

function verdict(finding: Finding): DetectedType {
  switch (finding.type) {
    case "text": {
      const { kind, mime, language } = finding;
      return language ? { ok: true, kind, mime, language } : { ok: true, kind, mime };
    }
    case "document":
      return {
        ok: false,
        message: `This is ${finding.name}, not a web page or text file, so it cannot be read directly; use convert_content to convert it to Markdown.`,
      };
    case "binary":
      return { ok: false, message: `This is ${finding.name}: the content is binary and not readable as text.` };
  }
}

/**
 * Decides how to read a response. Magic bytes that prove a binary or document format win over everything
 * (servers label PDFs text/html); then the Content-Type header (generic text/plain defers to a more specific
 * extension, as raw-file hosts serve everything as text/plain); then the URL path's extension; then sniffing.
 * Without a header, a text type from the extension still has to pass the binary-content check.
 */
export async function detectContentType(input: { contentType?: string; url: string; bytes: Uint8Array }): Promise<DetectedType> {
  const mime = mediaType(input.contentType);
  const header = mime ? fromMime(mime) : undefined;
  const path = fromPath(input.url);
  const magic = await fromMagic(input.bytes);
  if (magic) {
    // ZIP and the legacy compound file are containers: the header or extension may say which document is inside.
    const claimed = [header, path].find((finding) => finding?.type === "document");
    return verdict((magic === ZIP_ARCHIVE || magic === LEGACY_OFFICE) && claimed ? claimed : magic);
  }
  if (header) {
    const genericText = header.type === "text" && header.kind === "text" && mime.startsWith("text/");
    // Not to .html: a server sending HTML as text/plain (raw file hosts) means the source, not the page.
    const deferToPath = genericText && path?.type === "text" && path.kind !== "text" && path.kind !== "html";
    return verdict(deferToPath && path ? path : header);
  }
  if (path?.type === "text" && looksBinary(input.bytes)) return verdict(UNRECOGNISED_BINARY);
  return verdict(path ?? fromContent(input.bytes));
}
