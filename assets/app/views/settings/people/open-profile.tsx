/** Opening a person's profile card (its code loads on first use), from the people list and the directory. */
import { openLazyDialog } from "../../Dialog";

export function openProfile(userId: number): void {
  openLazyDialog(() => import("./ProfileCard").then((m) => () => <m.ProfileCard userId={userId} />));
}
