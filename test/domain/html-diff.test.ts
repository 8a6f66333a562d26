import { describe, expect, test } from "bun:test";
import { htmlDiff } from "../../src/domain/html-diff";

describe("content_html_diff", () => {
  test("marks inserted words in the new rendering", () => {
    expect(htmlDiff("<p>Hello world</p>", "<p>Hello brave new world</p>")).toBe('<div><p>Hello <span class="highlight_text_inserted">brave new </span>world</p></div>');
  });

  test("shows removed words as deleted", () => {
    expect(htmlDiff("<p>Hello cruel world</p>", "<p>Hello world</p>")).toBe('<div><p>Hello <span class="highlight_text_deleted">cruel </span>world</p></div>');
  });

  test("keeps the new markup whole when formatting changes", () => {
    const out = htmlDiff("<p>plain</p>", "<p><strong>plain</strong></p>");
    expect(out).toBe("<div><p><strong>plain</strong></p></div>");
  });

  test("an unchanged rendering has no highlights", () => {
    expect(htmlDiff("<p>same</p>", "<p>same</p>")).toBe("<div><p>same</p></div>");
  });
});
