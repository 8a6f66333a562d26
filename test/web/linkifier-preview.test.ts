/** The linkifier preview in the browser (lib/linkifier-preview.ts) links what the server's renderer links, and nothing else. */
import { describe, expect, test } from "bun:test";
import { previewLinkifier } from "../../assets/app/lib/linkifier-preview";
import { compileLinkifiers, linkifierMatches } from "../../src/domain/markdown/linkifiers";

const CASES: [pattern: string, template: string, sample: string][] = [
  ["#(?P<id>[0-9]+)", "https://tracker.example/issues/{id}", "Fixed in #123 and #45, not in a#6 or #7x."],
  ["(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<n>[0-9]+)", "https://git.example/{org}/{repo}/pull/{n}", "see (zulip/zulip#99), and 'parley/web#1'"],
  ["RFC ?(?P<rfc>[0-9]+)", "https://www.rfc-editor.org/rfc/rfc{rfc}", "RFC 6570 and RFC6749: two"],
  ["go/(?P<path>[\\w/]+)", "https://go.example/{+path}", "open go/a/b/c now"],
  ["(?P<word>bad)", "javascript:alert({word})", "a bad link"],
  ["T(?P<n>[0-9]+)", "https://t.example/{n}", ""],
];

describe("the linkifier preview", () => {
  for (const [pattern, template, sample] of CASES) {
    test(`links the same text to the same URLs as the server for ${pattern}`, () => {
      const server = linkifierMatches(sample, compileLinkifiers([{ id: 1, pattern, url_template: template }]));
      const preview = previewLinkifier(pattern, template, sample);
      if ("error" in preview) throw new Error(preview.error);
      expect(preview.parts.filter((p) => p.url).map((p) => [p.text, p.url])).toEqual(server.map((m) => [m.text, m.url]));
      expect(preview.parts.map((p) => p.text).join("")).toBe(sample);
    });
  }

  test("shows the reason a pattern does not compile, in the server's words", () => {
    expect(previewLinkifier("#(?P<id>[0-9+", "https://x.example/{id}", "#1")).toEqual({ error: expect.stringMatching(/^Bad regular expression: ./) });
  });

  test("a pattern not yet typed leaves the sample as it is", () => {
    expect(previewLinkifier("", "", "#12")).toEqual({ parts: [{ text: "#12" }] });
  });

  test("a link in the sample shows its expanded URL", () => {
    expect(previewLinkifier("#(?P<id>[0-9]+)", "https://tracker.example/{id}", "see #12")).toEqual({ parts: [{ text: "see " }, { text: "#12", url: "https://tracker.example/12" }] });
  });
});
