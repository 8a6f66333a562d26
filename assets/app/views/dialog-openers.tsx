/** Dialogs opened from several places (the personal menu, settings sections); each loads on first use. */
import { openLazyDialog } from "./Dialog";

export function openInviteDialog(): void {
  openLazyDialog(() => import("./InviteDialog").then((mod) => () => <mod.InviteDialog />));
}

export function openPasswordDialog(): void {
  openLazyDialog(() => import("./PasswordDialog").then((mod) => () => <mod.PasswordDialog />));
}
