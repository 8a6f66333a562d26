// The web client's files, imported as text so `bun build --compile` embeds them in the executable.
import indexHtml from "../../assets/index.html" with { type: "text" };
import appJs from "../../assets/app.js" with { type: "text" };
import styleCss from "../../assets/style.css" with { type: "text" };

export const ASSETS: Record<string, { body: string; type: string }> = {
  // (typed as Bun's HTML bundle; with { type: "text" } it is the file's text)
  "/": { body: indexHtml as unknown as string, type: "text/html; charset=utf-8" },
  "/static/app.js": { body: appJs, type: "text/javascript; charset=utf-8" },
  "/static/style.css": { body: styleCss, type: "text/css; charset=utf-8" },
};
