/**
 * Runs in the page: the document as HTML with open shadow roots rendered in place (slots filled
 * with what is assigned to them) and same-origin iframes' bodies inlined, so the extractor sees
 * what a reader sees. Scripts, styles and templates are left out: the extractor drops them anyway.
 * JavaScript source, since it runs in the page (the sidecar's own types know no DOM); it answers at
 * most about `maxChars` characters.
 */
export const FLATTEN_DOM_SOURCE = `(maxChars) => {
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const SKIP = new Set(["script", "style", "template", "noscript"]);
  const parts = [];
  let size = 0;
  const push = (text) => {
    parts.push(text);
    size += text.length;
  };
  const escapeText = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escapeAttr = (text) => escapeText(text).replace(/"/g, "&quot;");
  const children = (nodes) => {
    for (let i = 0; i < nodes.length && size < maxChars; i++) write(nodes[i]);
  };
  const write = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return push(escapeText(node.nodeValue ?? ""));
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node;
    const tag = element.localName;
    if (SKIP.has(tag)) return;
    if (tag === "slot") {
      const assigned = element.assignedNodes({ flatten: true });
      return children(assigned.length > 0 ? assigned : element.childNodes);
    }
    let attrs = "";
    for (const attr of Array.from(element.attributes)) attrs += " " + attr.name + '="' + escapeAttr(attr.value) + '"';
    push("<" + tag + attrs + ">");
    if (VOID.has(tag)) return;
    if (tag === "iframe") {
      let inner = null;
      try {
        inner = element.contentDocument;
      } catch {
        inner = null; // another origin's frame: not ours to read
      }
      if (inner?.body) {
        push("</iframe><div>");
        children(inner.body.childNodes);
        return push("</div>");
      }
    }
    children(element.shadowRoot ? element.shadowRoot.childNodes : element.childNodes);
    push("</" + tag + ">");
  };
  const root = document.documentElement;
  if (root) write(root);
  return "<!doctype html>" + parts.join("");
}`;
