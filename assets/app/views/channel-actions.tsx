/** Opening the channel dialogs from the sidebar and the browse view (their code loads on first use). */
import { openLazyDialog } from "./Dialog";
import { icon, type Props } from "./icons";

export function openCreateChannel(): void {
  openLazyDialog(() => import("./CreateChannelDialog").then((mod) => () => <mod.CreateChannelDialog />));
}

export const PlusIcon = (p: Props) => icon(<path d="M12 5v14M5 12h14" />, p);
