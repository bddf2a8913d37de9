import { send, type Handler } from "./origin.ts";
import { ONE_PARAGRAPH, PASSAGE_PAGES } from "./passage-pages.ts";

/** The labelled pages as an origin's routes, and /passages/one-paragraph.txt. */
export const passagePageRoutes = (): Record<string, Handler> => ({
  ...Object.fromEntries(PASSAGE_PAGES.map((page) => [page.path, send(200, page.contentType, page.body)])),
  "/passages/one-paragraph.txt": send(200, "text/plain; charset=utf-8", ONE_PARAGRAPH),
});
