/**
 * The path of a request's URL, cut out of the string: what Elysia's router matches (it cuts the same
 * way), at a fraction of the cost of `new URL(url).pathname`, which the hooks of every request paid.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.indexOf("?", start);
  if (end < 0) end = url.indexOf("#", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
