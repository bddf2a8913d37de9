import { isTraversal, parse, type Selector } from "css-what";

/**
 * What keeps `selector` from being a selector list a browser's querySelector accepts, or undefined
 * when nothing does. css-what reads the syntax; it lets a few things pass that browsers refuse
 * (a combinator at either end, a type selector after other parts of a compound), checked here.
 */
export function cssSelectorProblem(selector: string): string | undefined {
  let list: Selector[][];
  try {
    list = parse(selector);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return listProblem(list, false);
}

/** `relative`: inside :has(), where a selector may start with a combinator. */
function listProblem(list: Selector[][], relative: boolean): string | undefined {
  for (const selector of list) {
    const first = selector[0];
    const last = selector[selector.length - 1];
    if (!first || !last) return "an empty selector";
    if (!relative && isTraversal(first)) return "a selector starts with a combinator";
    if (isTraversal(last)) return "a selector ends with a combinator";
    let compoundStart = true;
    for (const token of selector) {
      if (isTraversal(token)) {
        compoundStart = true;
        continue;
      }
      if ((token.type === "tag" || token.type === "universal") && !compoundStart) return `"${token.type === "tag" ? token.name : "*"}" stands after other parts of a compound selector`;
      compoundStart = false;
      if (token.type === "pseudo" && Array.isArray(token.data)) {
        const inner = listProblem(token.data, token.name === "has");
        if (inner) return inner;
      }
    }
  }
  return undefined;
}
