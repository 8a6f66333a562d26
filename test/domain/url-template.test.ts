import { describe, expect, test } from "bun:test";
import { templateVariables } from "../../src/domain/url-template";

describe("templateVariables", () => {
  test("lists the variables of simple and operator expressions", () => {
    expect(templateVariables("https://python.example.com?code={code}")).toEqual(["code"]);
    expect(templateVariables("https://example.com/run{?code,lang}")).toEqual(["code", "lang"]);
    expect(templateVariables("https://example.com/{+base}/x{#frag}")).toEqual(["base", "frag"]);
    expect(templateVariables("https://example.com/{code:30}/{list*}")).toEqual(["code", "list"]);
    expect(templateVariables("https://example.com/{a.b}{%41x}")).toEqual(["a.b", "%41x"]);
  });

  test("a template without expressions has no variables", () => {
    expect(templateVariables("https://example.com/")).toEqual([]);
    expect(templateVariables("")).toEqual([]);
  });

  test("refuses malformed templates", () => {
    for (const bad of [
      "https://example.com/{code",
      "https://example.com/code}",
      "https://example.com/{}",
      "https://example.com/{?}",
      "https://example.com/{=code}",
      "https://example.com/{co de}",
      "https://example.com/{code:0}",
      "https://example.com/{code:10000}",
      "https://example.com/{code,}",
      "https://example.com/a b{code}",
      "https://example.com/%zz{code}",
      'https://example.com/"{code}',
      "https://example.com/{{code}}",
    ]) {
      expect(templateVariables(bad)).toBeNull();
    }
  });

  test("allows non-ASCII and percent-encoded literals", () => {
    expect(templateVariables("https://例え.jp/%E2%9C%93?c={code}")).toEqual(["code"]);
  });
});
