/** Sent with every outbound request, so site owners can tell us apart. */
export const USER_AGENT = "EdgeWebTools/0.1.0 (web tools for AI agents)";
