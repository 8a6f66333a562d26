/**
 * The web app manifest (/manifest.webmanifest): what a browser needs to install Parley on a phone's
 * home screen or a desktop, named after the organization.
 */
import type { ManifestIcon } from "./types";

/** The logo's blue (assets/app/images/favicon.svg): the title bar and splash screen of the installed app. */
export const THEME_COLOR = "#4f6fdc";

export function webManifest(realmName: string, icons: ManifestIcon[]) {
  const name = realmName.trim() || "Parley";
  return {
    name,
    // a launcher shows about 12 characters under an icon
    short_name: [...name].length <= 12 ? name : "Parley",
    description: `${name} on Parley: channels, topics and direct messages.`,
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: THEME_COLOR,
    icons,
  };
}
