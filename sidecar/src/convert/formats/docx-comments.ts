import { ok, type Result } from "@edge-web/shared";
import { textContent } from "../../extract/dom.ts";
import { escapeInline } from "../../extract/markdown-syntax.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { Relationship } from "./ooxml-relationships.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";
import { readXmlPart } from "./read-xml-part.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** A Word comment as a footnote: who wrote it and what it says (its paragraphs on one line). */
export type CommentNotes = Map<string, string>;

/** The document's comments (word/comments.xml, found through the main part's relationships), by id. */
export function readComments(archive: ZipArchive, relationships: ReadonlyMap<string, Relationship>): Result<CommentNotes, ZipCode> {
  const notes: CommentNotes = new Map();
  const part = [...relationships.values()].find(({ type, external }) => type === "comments" && !external)?.target;
  if (!part) return ok(notes);
  const comments = readXmlPart(archive, part);
  if (!comments.ok) return comments;
  for (const comment of comments.value ? descendantElements(comments.value, "comment") : []) {
    const id = prefixedAttribute(comment.attribs, "id");
    if (id === undefined) continue;
    const text = childElements(comment, "p")
      .map((paragraph) => oneLine(descendantElements(paragraph, "t").map(textContent).join("")))
      .filter(Boolean)
      .join(" ");
    const author = oneLine(prefixedAttribute(comment.attribs, "author") ?? "");
    notes.set(id, `${author ? `${escapeInline(author)}: ` : ""}${escapeInline(text)}`);
  }
  return ok(notes);
}

/** Footnote definitions for the comments referenced, numbered as their references are. */
export function commentFootnotes(notes: CommentNotes, order: readonly string[]): string {
  return order.map((id, i) => `[^c${i + 1}]: ${notes.get(id) ?? ""}`).join("\n");
}
