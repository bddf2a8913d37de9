import * as v from "valibot";

/** What a failed valibot parse says to its caller: "path: message; …" and the distinct field paths. */
export interface IssueSummary {
  text: string;
  fields: string[];
}

/** The one wording of valibot issues for every failure that names fields (`(root)` for the value itself). */
export function summarizeIssues(issues: readonly v.BaseIssue<unknown>[]): IssueSummary {
  const paths = issues.map((issue) => v.getDotPath(issue) ?? "(root)");
  return {
    text: issues.map((issue, i) => `${paths[i]}: ${issue.message}`).join("; "),
    fields: [...new Set(paths)],
  };
}
