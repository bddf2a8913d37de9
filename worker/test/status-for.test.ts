import { describe, expect, it } from "vitest";
import { statusFor, statusesFor } from "../src/http/status-for.ts";

describe("statusFor", () => {
  it("answers a full converter (CONVERT_FAILED, fault unavailable) with 503, and lists 503 among the code's statuses", () => {
    expect(statusFor({ code: "CONVERT_FAILED", details: { fault: "unavailable" } })).toBe(503);
    expect(statusFor({ code: "CONVERT_FAILED" })).toBe(502);
    expect(statusesFor("CONVERT_FAILED")).toContain(503);
  });

  it("ignores a fault its code does not cover, so a code's documented statuses stay complete", () => {
    expect(statusFor({ code: "FILE_NOT_FOUND", details: { fault: "unavailable" } })).toBe(404);
    expect(statusesFor("FILE_NOT_FOUND")).not.toContain(503);
  });
});

describe("the faults a fetched page can fail with", () => {
  it("answers a blocked page (an upstream refusal) 502 and a robots.txt refusal 403, both listed for CONTENT_FETCH_FAILED", () => {
    expect(statusFor({ code: "CONTENT_FETCH_FAILED", details: { fault: "blocked", upstreamStatus: 403 } })).toBe(502);
    expect(statusFor({ code: "CONTENT_FETCH_FAILED", details: { fault: "robots" } })).toBe(403);
    expect(statusesFor("CONTENT_FETCH_FAILED")).toEqual(expect.arrayContaining([403, 502]));
  });
});
