import { fail, ok, type Result } from "@edge-web/shared";

/**
 * The work's value, or CONVERT_TIMEOUT once Date.now() reaches deadlineMs. The work itself is not stopped (the
 * libraries have no way to cancel); the caller releases what it holds.
 */
export async function beforeDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<Result<T, "CONVERT_TIMEOUT">> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Result<T, "CONVERT_TIMEOUT">>((resolve) => {
    timer = setTimeout(() => resolve(fail("CONVERT_TIMEOUT", "The conversion deadline came first.")), Math.max(0, deadlineMs - Date.now()));
  });
  try {
    return await Promise.race([work.then((value) => ok(value)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
