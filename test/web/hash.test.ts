/** The web app's URLs: Zulip's #narrow forms, written and read back (assets/app/nav/hash.ts). */
import { describe, expect, test } from "bun:test";
import { decodeHashComponent, encodeHashComponent, homeView, parseHash, viewHash, type PageView, type View } from "../../assets/app/nav/hash";
import { sampleState } from "./fixtures";

const state = sampleState();
const narrow = (n: Extract<View, { kind: "narrow" }>["narrow"], near?: number): PageView => ({ kind: "narrow", narrow: n, ...(near ? { near } : {}) });

describe("view URLs", () => {
  test("each view is written in Zulip's form", () => {
    expect(viewHash(state, { kind: "inbox" })).toBe("#inbox");
    expect(viewHash(state, { kind: "recent" })).toBe("#recent");
    expect(viewHash(state, { kind: "drafts" })).toBe("#drafts");
    expect(viewHash(state, { kind: "scheduled" })).toBe("#scheduled");
    expect(viewHash(state, narrow({ kind: "feed" }))).toBe("#feed");
    expect(viewHash(state, narrow({ kind: "starred" }))).toBe("#narrow/is/starred");
    expect(viewHash(state, narrow({ kind: "mentioned" }))).toBe("#narrow/is/mentioned");
    expect(viewHash(state, narrow({ kind: "dms" }))).toBe("#narrow/is/dm");
    expect(viewHash(state, narrow({ kind: "channel", stream_id: 12 }))).toBe("#narrow/channel/12-general");
    expect(viewHash(state, narrow({ kind: "channel", stream_id: 13 }))).toBe("#narrow/channel/13-design-team");
    expect(viewHash(state, narrow({ kind: "topic", stream_id: 12, topic: "lunch time" }))).toBe("#narrow/channel/12-general/topic/lunch.20time");
    expect(viewHash(state, narrow({ kind: "topic", stream_id: 14, topic: "a.b (c) 100%" }))).toBe("#narrow/channel/14-v1.2E0-.28old.29/topic/a.2Eb.20.28c.29.20100.25");
    expect(viewHash(state, narrow({ kind: "dm", key: "5" }))).toBe("#narrow/dm/5-Othello.2C-the-Moor-of-Venice");
    expect(viewHash(state, narrow({ kind: "dm", key: "5,6" }))).toBe("#narrow/dm/5,6-group");
    expect(viewHash(state, narrow({ kind: "dm", key: "4" }))).toBe("#narrow/dm/4-King-Hamlet");
    expect(viewHash(state, narrow({ kind: "topic", stream_id: 12, topic: "lunch" }, 99))).toBe("#narrow/channel/12-general/topic/lunch/near/99");
  });

  test("every view written is read back as itself", () => {
    const views: View[] = [
      { kind: "inbox" },
      { kind: "recent" },
      { kind: "drafts" },
      { kind: "scheduled" },
      narrow({ kind: "feed" }),
      narrow({ kind: "starred" }),
      narrow({ kind: "mentioned" }),
      narrow({ kind: "dms" }),
      narrow({ kind: "channel", stream_id: 14 }),
      narrow({ kind: "topic", stream_id: 14, topic: "a.b (c) 100% ✓" }),
      narrow({ kind: "topic", stream_id: 12, topic: "" }),
      narrow({ kind: "dm", key: "5" }),
      narrow({ kind: "dm", key: "5,6" }),
      narrow({ kind: "dm", key: "4" }),
      narrow({ kind: "channel", stream_id: 12 }, 42),
    ];
    for (const v of views) expect(parseHash(state, viewHash(state, v))).toEqual(v);
  });

  test("Zulip's older and looser forms are understood", () => {
    expect(parseHash(state, "#narrow/stream/12-general/subject/lunch")).toEqual(narrow({ kind: "topic", stream_id: 12, topic: "lunch" }));
    expect(parseHash(state, "#narrow/channel/general")).toEqual(narrow({ kind: "channel", stream_id: 12 }));
    expect(parseHash(state, "#narrow/channel/12")).toEqual(narrow({ kind: "channel", stream_id: 12 }));
    expect(parseHash(state, "#narrow/pm-with/5-othello")).toEqual(narrow({ kind: "dm", key: "5" }));
    // a group conversation's link may name the reader too
    expect(parseHash(state, "#narrow/dm/4,5,6-group")).toEqual(narrow({ kind: "dm", key: "5,6" }));
    expect(parseHash(state, "#narrow/is/private")).toEqual(narrow({ kind: "dms" }));
    expect(parseHash(state, "#narrow/channel/12-general/topic/lunch/with/7")).toEqual(narrow({ kind: "topic", stream_id: 12, topic: "lunch" }, 7));
    expect(parseHash(state, "#all_messages")).toEqual(narrow({ kind: "feed" }));
    expect(parseHash(state, "#recent_topics")).toEqual({ kind: "recent" });
    expect(parseHash(state, "#narrow/in/home")).toEqual(narrow({ kind: "feed" }));
  });

  test("an empty hash is the person's home view; a link the app cannot show is refused", () => {
    expect(parseHash(state, "")).toEqual({ kind: "inbox" });
    expect(parseHash({ ...state, settings: { ...state.settings, web_home_view: "recent_topics" } }, "#")).toEqual({ kind: "recent" });
    expect(homeView({ ...state, settings: { ...state.settings, web_home_view: "all_messages" } })).toEqual(narrow({ kind: "feed" }));
    for (const h of ["#narrow/channel", "#narrow/unknown/x", "#narrow/channel/gone", "#narrow/sender/nobody", "#narrow/channel/12-general/topic", "#narrow/channel/12/channel/13", "#narrow/near/abc", "#narrow/channel/.E0"]) {
      expect(parseHash(state, h)).toBeNull();
    }
  });

  test("the settings overlay's sections are written and read in Zulip's forms", () => {
    const profile = { kind: "settings", area: "personal", section: "profile" } as const;
    const admin = { kind: "settings", area: "organization", section: "organization-profile" } as const;
    expect(viewHash(state, profile)).toBe("#settings/profile");
    expect(viewHash(state, admin)).toBe("#organization/organization-profile");
    expect(viewHash(state, { kind: "settings", area: "personal", section: "" })).toBe("#settings");
    expect(parseHash(state, "#settings/profile")).toEqual(profile);
    expect(parseHash(state, "#organization/organization-profile")).toEqual(admin);
    // no section: the area's first; a deeper path (Zulip's bot-list-admin/all-bots) opens its section
    expect(parseHash(state, "#settings")).toEqual({ kind: "settings", area: "personal", section: "" });
    expect(parseHash(state, "#organization/bot-list-admin/all-bots")).toEqual({ kind: "settings", area: "organization", section: "bot-list-admin" });
    expect(parseHash(state, "#settings/Profile!")).toBeNull();
  });

  test("hash components encode like Zulip's hash_util (\".\" for \"%\") and decode back", () => {
    expect(encodeHashComponent("100% (sure).")).toBe("100.25.20.28sure.29.2E");
    expect(decodeHashComponent("100.25.20.28sure.29.2E")).toBe("100% (sure).");
  });
});
