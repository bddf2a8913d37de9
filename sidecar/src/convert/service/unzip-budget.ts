import { fail, ok, type Result } from "@edge-web/shared";
import { formatSize } from "../formats/format-size.ts";

/**
 * What the ZIP archives of one conversion may still unpack to, together (maxUnzippedBytes): an archive of files and
 * the documents inside it (a DOCX is itself a ZIP archive) share it, so the whole archive unpacks within the limit.
 */
export class UnzipBudget {
  readonly #limit: number;
  #left: number;

  constructor(limit: number) {
    this.#limit = limit;
    this.#left = limit;
  }

  /** Takes what an archive declares it unpacks to (enforced while inflating); FILE_TOO_LARGE, nothing taken, when less is left. */
  take(bytes: number): Result<void, "FILE_TOO_LARGE"> {
    if (bytes > this.#left) {
      return fail("FILE_TOO_LARGE", `The file unpacks to ${formatSize(bytes)}, more than the ${formatSize(this.#left)} left of the ${formatSize(this.#limit)} the whole archive may unpack to.`);
    }
    this.#left -= bytes;
    return ok(undefined);
  }
}
