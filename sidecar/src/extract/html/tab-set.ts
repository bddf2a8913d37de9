import type { Element } from "domhandler";
import { elementFrom, isElement, walk } from "../dom.ts";

/**
 * A tab widget as ARIA marks it up (role="tablist" holding role="tab"s, then role="tabpanel"s): every panel is read
 * (visibility.ts), each under its tab's name, and the tab list itself, a row of names, is not. Docusaurus, Bootstrap,
 * MUI, Radix and Headless UI all write it so.
 */

/** The panels stand this many levels up from the tab list at most, in the element after it (MUI wraps the list twice). */
const PANELS_REACH = 3;
/**
 * A container of panels holds one among its first few elements (a script or a style may come first), and so does a tab
 * widget its tab list.
 */
const PANEL_CONTAINER_LEAD = 4;

export class TabSet {
  private readonly tabs: readonly Element[];
  /** The tabs by their id and by the panel id they control: a panel's tab is found at once. */
  private readonly byId = new Map<string, Element>();
  private readonly byPanel = new Map<string, Element>();
  /** Tabs that named a panel already, and the first place in order not yet looked at by a panel that names none. */
  private readonly used = new Set<Element>();
  private next = 0;

  private constructor(tabs: readonly Element[]) {
    this.tabs = tabs;
    for (const tab of tabs) {
      const { id, "aria-controls": controls } = tab.attribs;
      if (id !== undefined && !this.byId.has(id)) this.byId.set(id, tab);
      if (controls !== undefined && !this.byPanel.has(controls)) this.byPanel.set(controls, tab);
    }
  }

  /**
   * The tab list's tabs, when panels follow it: in the element after it, or after one of its nearest ancestors (itself
   * a panel, or holding one among its children). A tab list with no panels (a menu of links marked up as tabs) is none.
   */
  static of(tablist: Element): TabSet | undefined {
    if (!panelsFollow(tablist)) return undefined;
    const tabs: Element[] = [];
    walk(tablist, (node) => {
      if (!isElement(node)) return false;
      if (node.attribs.role !== "tab") return true;
      tabs.push(node);
      return false;
    });
    return tabs.length > 0 ? new TabSet(tabs) : undefined;
  }

  /** The tab that names a panel: by the panel's aria-labelledby, by a tab's aria-controls, else the first in order not used. */
  tabOf(panel: Element): Element | undefined {
    const { id, "aria-labelledby": labelledBy } = panel.attribs;
    let tab: Element | undefined;
    for (const token of labelledBy?.split(/\s+/) ?? []) tab ??= this.fresh(this.byId.get(token));
    if (id !== undefined) tab ??= this.fresh(this.byPanel.get(id));
    if (!tab) {
      while (this.next < this.tabs.length && this.used.has(this.tabs[this.next] as Element)) this.next++;
      tab = this.tabs[this.next++];
    }
    if (tab) this.used.add(tab);
    return tab;
  }

  /** A tab names one panel: panels that share an id or a label are written once under it, the others under none. */
  private fresh(tab: Element | undefined): Element | undefined {
    return tab && !this.used.has(tab) ? tab : undefined;
  }
}

function panelsFollow(tablist: Element): boolean {
  let at: Element = tablist;
  for (let level = 0; level < PANELS_REACH; level++) {
    const sibling = elementFrom(at.next);
    if (sibling && (isPanel(sibling) || firstElements(sibling).some(isPanel))) return true;
    const { parent } = at;
    if (!parent || !isElement(parent)) return false;
    at = parent;
  }
  return false;
}

const isPanel = (element: Element): boolean => element.attribs.role === "tabpanel";

/**
 * Whether an element is a tab widget: a tab list among its first few elements, with panels after it. Its name says
 * what it is (Docusaurus' tabList), not that its panels are a list of links.
 */
export const holdsTabSet = (element: Element): boolean => firstElements(element).some((child) => child.attribs.role === "tablist" && panelsFollow(child));

/**
 * The first few element children: where a container of panels has its first panel, and a tab widget its tab list. Only
 * these are read, so that every tab list under one parent looking at the same large element after it costs no more
 * than a glance each.
 */
function firstElements(parent: Element): Element[] {
  const found: Element[] = [];
  for (let at = elementFrom(parent.children[0]); at && found.length < PANEL_CONTAINER_LEAD; at = elementFrom(at.next)) found.push(at);
  return found;
}

/**
 * Tabs made of radio buttons and their labels, without ARIA roles (MkDocs Material's content tabs, VitePress' code
 * groups): an element holding only the labels (and maybe the radio buttons), each label `for` a radio button of the
 * group, followed by an element with as many children as there are labels, all of one kind, the panels in the labels'
 * order (a poll's choices are followed by no such element). Returns
 * each panel with its label, or nothing when the markup is not such a set.
 */
export function radioTabPanels(labels: Element): Map<Element, Element> | undefined {
  const found: Element[] = [];
  for (const child of labels.children) {
    if (!isElement(child)) continue;
    if (child.name === "label" && child.attribs.for) found.push(child);
    else if (child.name !== "input") return undefined;
  }
  if (found.length < 2) return undefined;
  const group = labels.parent && isElement(labels.parent) ? labels.parent : labels;
  const radios = new Set<string>();
  for (const holder of new Set([labels, group])) {
    for (const child of holder.children) if (isElement(child) && child.name === "input" && child.attribs.type?.toLowerCase() === "radio" && child.attribs.id) radios.add(child.attribs.id);
  }
  if (!found.every((label) => radios.has(label.attribs.for as string))) return undefined;
  const container = elementFrom(labels.next);
  const panels = container?.children.filter(isElement) ?? [];
  if (panels.length !== found.length || panels.some((panel) => panel.name !== panels[0]?.name)) return undefined;
  return new Map(panels.map((panel, index) => [panel, found[index] as Element]));
}
