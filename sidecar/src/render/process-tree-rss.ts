import { processTree } from "./process-tree.ts";

/**
 * Resident bytes of a process and all its descendants, read from /proc; 0 where there is no /proc
 * or the process is gone. Shared pages count in each process, so this is an upper bound of what the
 * tree holds.
 */
export function processTreeRssBytes(rootPid: number): number {
  return processTree(rootPid).reduce((sum, { rssBytes }) => sum + rssBytes, 0);
}
