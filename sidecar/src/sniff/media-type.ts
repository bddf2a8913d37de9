export { mediaType } from "@edge-web/shared";
