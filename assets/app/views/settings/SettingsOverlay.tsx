/**
 * The settings overlay (Zulip's): over the app, a menu of sections on the left (the personal ones, or the
 * organization's) and the open section beside it. Its state is the URL hash (`#settings/profile`,
 * `#organization/organization-profile`); Escape or the close button returns to the view beneath. At
 * phone width the menu and the section take the whole width in turn. Each section's code loads when it
 * is first opened. The shell itself is loaded on first use (App.tsx).
 */
import type { ComponentType } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { closeSettings, hrefOf } from "../../nav/router";
import type { SettingsArea, SettingsView } from "../../nav/hash";
import { state } from "../../state/store";
import { lazy } from "../../lib/lazy";
import { dialogOpen } from "../Dialog";
import { ArrowLeftIcon, CloseIcon } from "../icons";
import { sectionFor, sectionsOf, type Section } from "./sections";

const AREA_LABEL: Record<SettingsArea, string> = { personal: "Personal settings", organization: "Organization settings" };

const screens = new Map<string, ComponentType>();
function screenOf(section: Section): ComponentType {
  const key = `${section.area}/${section.id}`;
  let screen = screens.get(key);
  if (!screen) {
    screen = lazy(section.load, () => <p class="muted-text settings-loading">Loading…</p>);
    screens.set(key, screen);
  }
  return screen;
}

export function SettingsOverlay({ v }: { v: SettingsView }) {
  const s = state.value!;
  const shown = sectionsOf(s, v.area);
  const section = sectionFor(s, v.area, v.section);
  const hasOrganization = sectionsOf(s, "organization").length > 0;
  const panel = useRef<HTMLElement>(null);
  const nav = useRef<HTMLElement>(null);
  // a URL naming no section shows the menu at phone width (and the first section beside it elsewhere)
  const menuFirst = v.section === "" || !shown.some((x) => x.id === v.section);

  // closed: the focus goes back to what opened it (or the messages), once the page beneath is live again
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () =>
      void setTimeout(() => {
        const back = opener && opener !== document.body && opener.isConnected ? opener : document.getElementById("main-pane");
        back?.focus({ preventScroll: true });
      });
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || dialogOpen() || document.querySelector(".menu[role=menu]")) return;
      e.preventDefault();
      closeSettings();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // opened: the focus goes to the menu's current entry; a section chosen: into the section
  const first = useRef(true);
  useEffect(() => {
    if (first.current || menuFirst) nav.current?.querySelector<HTMLElement>("[aria-current=page]")?.focus({ preventScroll: true });
    else panel.current?.focus({ preventScroll: true });
    first.current = false;
  }, [v.area, v.section]);

  const Screen = section ? screenOf(section) : null;
  return (
    <div class={`settings-overlay ${menuFirst ? "menu-first" : "section-first"}`} role="dialog" aria-modal="true" aria-labelledby="settings-title">
      <header class="settings-header">
        {!menuFirst && (
          <a class="icon-button settings-back" href={hrefOf({ kind: "settings", area: v.area, section: "" })} aria-label="All sections">
            <ArrowLeftIcon />
          </a>
        )}
        <h1 id="settings-title">Settings</h1>
        {hasOrganization && (
          <nav class="tabs settings-areas" aria-label="Settings areas">
            {(["personal", "organization"] as const).map((area) => (
              <a key={area} class="tab" href={hrefOf({ kind: "settings", area, section: "" })} aria-current={v.area === area ? "page" : undefined}>
                {area === "personal" ? "Personal" : "Organization"}
              </a>
            ))}
          </nav>
        )}
        <button type="button" class="icon-button settings-close" aria-label="Close settings" onClick={closeSettings}>
          <CloseIcon />
        </button>
      </header>
      <div class="settings-body">
        <nav class="settings-nav" ref={nav} aria-label={AREA_LABEL[v.area]}>
          <ul>
            {shown.map((x) => (
              <li key={x.id}>
                <a href={hrefOf({ kind: "settings", area: v.area, section: x.id })} aria-current={x === section ? "page" : undefined}>
                  {x.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <section class="settings-panel" ref={panel} tabIndex={-1} aria-labelledby="settings-section-title">
          {section && Screen ? (
            <>
              <h2 id="settings-section-title">{section.label}</h2>
              <Screen key={`${section.area}/${section.id}`} />
            </>
          ) : (
            <p class="muted-text">There is nothing to set here.</p>
          )}
        </section>
      </div>
    </div>
  );
}
