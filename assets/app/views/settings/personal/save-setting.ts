/** Saving one personal setting (PATCH /settings); the user_settings event brings the new value to the store. */
import { api } from "../../../api/http";
import type { Settings } from "../../../state/types";

export const saveSetting =
  <K extends keyof Settings>(name: K) =>
  (value: Settings[K]) =>
    api("PATCH", "/settings", { [name]: value });
