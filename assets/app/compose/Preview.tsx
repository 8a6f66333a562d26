/** The message as it will look, rendered by the server (POST /messages/render), in place of the text area. */
import { useEffect, useState } from "preact/hooks";
import { renderMarkdown } from "../api/calls";
import { describeError } from "../api/http";
import { MessageContent } from "../views/MessageContent";
import { compose } from "./state";

export function Preview() {
  const content = compose.content.value;
  const [rendered, setRendered] = useState<{ for: string; html: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!content.trim()) return;
    let current = true;
    setError(null);
    renderMarkdown(content).then(
      (html) => current && setRendered({ for: content, html }),
      (e) => current && setError(describeError(e)),
    );
    return () => {
      current = false;
    };
  }, [content]);

  let body;
  if (!content.trim()) body = <p class="preview-empty">Nothing to preview.</p>;
  else if (error) body = <p class="compose-error" role="alert">The preview could not be made: {error}</p>;
  else if (rendered?.for !== content) body = <p class="preview-empty">Rendering…</p>;
  else body = <MessageContent html={rendered.html} />;
  return (
    <div class="compose-preview" id="compose-preview" role="tabpanel" aria-label="Preview" aria-live="polite" tabIndex={0}>
      {body}
    </div>
  );
}
