/** The URLs of a channel's settings and of user groups, in Zulip's forms, written and read back. */
import { describe, expect, test } from "bun:test";
import { parseHash, viewHash, type View } from "../../assets/app/nav/hash";
import type { State } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const state: State = { ...sampleState(), groups: { ...sampleState().groups, 30: { id: 30, name: "Stage crew", is_system_group: false, members: [4], direct_subgroup_ids: [] } } };

describe("a channel's settings", () => {
  test("each tab is written as #channels/ID/name/tab and read back", () => {
    const v: View = { kind: "channel-settings", stream_id: 13, section: "subscribers" };
    expect(viewHash(state, v)).toBe("#channels/13/design-team/subscribers");
    for (const section of ["general", "personal", "subscribers"] as const) {
      const view: View = { kind: "channel-settings", stream_id: 12, section };
      expect(parseHash(state, viewHash(state, view))).toEqual(view);
    }
  });

  test("Zulip's shorter forms open the general tab; the browse tabs and unknown tabs stay what they were", () => {
    expect(parseHash(state, "#channels/12")).toEqual({ kind: "channel-settings", stream_id: 12, section: "general" });
    expect(parseHash(state, "#channels/12/general")).toEqual({ kind: "channel-settings", stream_id: 12, section: "general" });
    expect(parseHash(state, "#streams/12/general/personal")).toEqual({ kind: "channel-settings", stream_id: 12, section: "personal" });
    expect(parseHash(state, "#channels/all")).toEqual({ kind: "channels", tab: "all" });
    expect(parseHash(state, "#channels/12/general/everything")).toBeNull();
  });
});

describe("user groups", () => {
  test("the lists and a group's tabs are written in Zulip's forms and read back", () => {
    expect(viewHash(state, { kind: "groups", tab: "your" })).toBe("#groups/your");
    expect(viewHash(state, { kind: "groups", tab: "all", group_id: 30, section: "members" })).toBe("#groups/30/Stage-crew/members");
    expect(parseHash(state, "#groups")).toEqual({ kind: "groups", tab: "your" });
    expect(parseHash(state, "#groups/all")).toEqual({ kind: "groups", tab: "all" });
    expect(parseHash(state, "#groups/30/Stage-crew/permissions")).toEqual({ kind: "groups", tab: "all", group_id: 30, section: "permissions" });
    expect(parseHash(state, "#groups/30")).toEqual({ kind: "groups", tab: "all", group_id: 30, section: "general" });
    expect(parseHash(state, "#groups/30/Stage-crew/secrets")).toBeNull();
  });
});
