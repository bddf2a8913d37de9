import type { ProviderName } from "@edge-web/shared";
import { brave } from "./brave.ts";
import { ddgs } from "./ddgs.ts";
import { openserp } from "./openserp.ts";
import type { SearchProvider } from "./provider.ts";
import { searxng } from "./searxng.ts";
import { serper } from "./serper.ts";
import { tavily } from "./tavily.ts";

/** Every search provider by its config name. */
export const SEARCH_PROVIDERS: Readonly<Record<ProviderName, SearchProvider>> = { ddgs, brave, tavily, serper, openserp, searxng };
