/**
 * The settings overlay's sections, in the order its menu lists them, with Zulip's names in the URL
 * (`#settings/<id>` for the personal area, `#organization/<id>` for the organization's).
 *
 * To add a section: write its screen as `./<area-folder>/<Screen>.tsx` exporting a component with no props
 * (it reads the store: `state/store.ts` signals; it saves through `api/http.ts` with the controls of
 * `./controls/`, and shows what events bring back, not the request's answer), then add an entry below
 * with its Zulip id, its label, `visible` (from the rules of `state/permissions.ts`, the same the server
 * applies; a hidden section's URL opens the area's first section) and `load`, a dynamic import, so its
 * code is its own chunk fetched when the section is first opened.
 */
import type { ComponentType } from "preact";
import type { SettingsArea } from "../../nav/hash";
import type { State } from "../../state/types";

export interface Section {
  id: string;
  area: SettingsArea;
  label: string;
  visible(state: State): boolean;
  load(): Promise<ComponentType>;
}

const always = () => true;

export const SECTIONS: Section[] = [
  // personal
  { id: "profile", area: "personal", label: "Profile", visible: always, load: () => import("./personal/Profile").then((m) => m.Profile) },
  // organization (the administration screens add theirs here)
];

/** The sections of an area the person may open. */
export const sectionsOf = (state: State, area: SettingsArea) => SECTIONS.filter((s) => s.area === area && s.visible(state));

/** The section a URL names, or the area's first when it names none the person may open. */
export function sectionFor(state: State, area: SettingsArea, id: string): Section | undefined {
  const shown = sectionsOf(state, area);
  return shown.find((s) => s.id === id) ?? shown[0];
}
