/** Puts text on the clipboard: the Clipboard API, or (where it is missing or refused) a selected hidden field and "copy". */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) return await navigator.clipboard.writeText(text);
  } catch {
    // refused (no permission, the page not focused): the older way below still works in most browsers
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.append(field);
  const active = document.activeElement as HTMLElement | null;
  field.select();
  const ok = document.execCommand("copy");
  field.remove();
  active?.focus();
  if (!ok) throw new Error("The browser did not allow copying.");
}
