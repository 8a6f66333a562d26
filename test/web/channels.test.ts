/**
 * Channels in the web app, the pure parts: the "Browse channels" URLs, which kinds of channel a person is
 * offered to create, who may join or leave a channel, and how subscription and stream events keep each
 * channel's subscribers (the counts the browse view shows).
 */
import { describe, expect, test } from "bun:test";
import { parseHash, viewHash, type View } from "../../assets/app/nav/hash";
import { canToggleSubscription, canUnarchive, creatableChannelKinds } from "../../assets/app/state/permissions";
import { inBrowseTab, inSidebar } from "../../assets/app/state/archived";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { State } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const state = sampleState();
/** The sample state as someone else (7 guest, 8 administrator, 9 moderator, 5 member). */
const as = (me: number, change: (s: State) => State = (s) => s): State => change({ ...sampleState(), me });
const withRealm = (patch: Partial<State["realm"]>) => (s: State): State => ({ ...s, realm: { ...s.realm, ...patch } });
const withChannel = (id: number, patch: Partial<State["channels"][number]>) => (s: State): State => ({ ...s, channels: { ...s.channels, [id]: { ...s.channels[id]!, ...patch } } });

describe("the browse-channels URLs", () => {
  test("each tab is written in Zulip's form and read back as itself", () => {
    expect(viewHash(state, { kind: "channels", tab: "all" })).toBe("#channels/all");
    expect(viewHash(state, { kind: "channels", tab: "subscribed" })).toBe("#channels/subscribed");
    expect(viewHash(state, { kind: "channels", tab: "notsubscribed" })).toBe("#channels/notsubscribed");
    expect(viewHash(state, { kind: "channels", tab: "archived" })).toBe("#channels/archived");
    for (const tab of ["all", "subscribed", "notsubscribed", "archived"] as const) {
      const v: View = { kind: "channels", tab };
      expect(parseHash(state, viewHash(state, v))).toEqual(v);
    }
  });

  test("Zulip's older and shorter forms open the same view; unknown tabs do not", () => {
    expect(parseHash(state, "#channels")).toEqual({ kind: "channels", tab: "subscribed" });
    expect(parseHash(state, "#channels/all/")).toEqual({ kind: "channels", tab: "all" });
    expect(parseHash(state, "#streams/all")).toEqual({ kind: "channels", tab: "all" });
    expect(parseHash(state, "#channels/everything")).toBeNull();
    expect(parseHash(state, "#channels/all/extra")).toBeNull();
  });
});

describe("which channels a person may create", () => {
  test("a member may create public and private channels, but not web-public ones by default", () => {
    expect(creatableChannelKinds(as(4))).toEqual(["public", "private_shared", "private_protected"]);
  });

  test("web-public channels are offered only when the organization allows spectators and the person may", () => {
    const open = withRealm({ enable_spectator_access: true });
    expect(creatableChannelKinds(as(8, open))).toEqual(["public", "private_shared", "private_protected", "web_public"]);
    expect(creatableChannelKinds(as(8))).toEqual(["public", "private_shared", "private_protected"]);
    expect(creatableChannelKinds(as(4, open))).toEqual(["public", "private_shared", "private_protected"]);
    expect(creatableChannelKinds(as(8, (s) => open(withRealm({ web_public_channels_enabled: false })(s))))).not.toContain("web_public");
  });

  test("when only administrators may create channels, a member is offered none and an administrator all but web-public", () => {
    const adminsOnly = withRealm({ can_create_public_channel_group: 11, can_create_private_channel_group: 11 });
    expect(creatableChannelKinds(as(4, adminsOnly))).toEqual([]);
    expect(creatableChannelKinds(as(9, adminsOnly))).toEqual([]);
    expect(creatableChannelKinds(as(8, adminsOnly))).toEqual(["public", "private_shared", "private_protected"]);
    // private only: public channels are not offered
    expect(creatableChannelKinds(as(4, withRealm({ can_create_public_channel_group: 11 })))).toEqual(["private_shared", "private_protected"]);
    // a group of named people
    expect(creatableChannelKinds(as(6, withRealm({ can_create_public_channel_group: { direct_members: [6], direct_subgroups: [] }, can_create_private_channel_group: 12 })))).toEqual(["public"]);
  });

  test("a guest may create no channel, even where everyone is named", () => {
    expect(creatableChannelKinds(as(7))).toEqual([]);
    expect(creatableChannelKinds(as(7, withRealm({ can_create_public_channel_group: 2, can_create_private_channel_group: 2, enable_spectator_access: true, can_create_web_public_channel_group: 2 })))).toEqual([]);
  });
});

describe("who may join or leave a channel", () => {
  test("one's own subscription can always be left; a public channel is open to members", () => {
    expect(canToggleSubscription(as(4), 12)).toBe(true);
    expect(canToggleSubscription(as(4), 14)).toBe(true);
  });

  test("a private channel is joined only through its subscribe or add-subscribers groups", () => {
    const priv = withChannel(14, { invite_only: true });
    expect(canToggleSubscription(as(4, priv), 14)).toBe(false);
    expect(canToggleSubscription(as(8, priv), 14)).toBe(false);
    expect(canToggleSubscription(as(4, (s) => withChannel(14, { can_subscribe_group: { direct_members: [4], direct_subgroups: [] } })(priv(s))), 14)).toBe(true);
    expect(canToggleSubscription(as(4, (s) => withChannel(14, { can_add_subscribers_group: 3 })(priv(s))), 14)).toBe(true);
  });

  test("a guest joins nothing by themselves, an archived channel is joined by no one, an unknown one neither", () => {
    expect(canToggleSubscription(as(7), 14)).toBe(false);
    expect(canToggleSubscription(as(7, withChannel(14, { is_web_public: true })), 14)).toBe(false);
    expect(canToggleSubscription(as(7, withChannel(14, { invite_only: true, can_subscribe_group: 2 })), 14)).toBe(false);
    expect(canToggleSubscription(as(4, withChannel(14, { is_archived: true })), 14)).toBe(false);
    expect(canToggleSubscription(as(4), 99)).toBe(false);
  });
});

describe("each channel's subscribers follow the events", () => {
  const channelObject = (stream_id: number, name: string) => ({ stream_id, name, description: "", invite_only: false, is_web_public: false, is_archived: false, subscriber_count: 2 });

  test("a new channel starts empty and its subscribers arrive as peer_add, once each", () => {
    let s = applyEvent(state, { type: "stream", op: "create", streams: [channelObject(20, "tower")] });
    expect(s.subscribers[20]).toEqual([]);
    s = applyEvent(s, { type: "subscription", op: "peer_add", stream_ids: [20], user_ids: [6, 5] });
    s = applyEvent(s, { type: "subscription", op: "peer_add", stream_ids: [20], user_ids: [5] });
    expect(s.subscribers[20]).toEqual([5, 6]);
    s = applyEvent(s, { type: "subscription", op: "peer_remove", stream_ids: [20], user_ids: [6] });
    expect(s.subscribers[20]).toEqual([5]);
  });

  test("joining takes the subscription's list with oneself; leaving takes oneself out", () => {
    let s = applyEvent(state, { type: "subscription", op: "add", subscriptions: [{ ...channelObject(14, "v1.0 (old)"), color: "#c2726a", subscribers: [4, 5, 6] }] });
    expect(s.subscribers[14]).toEqual([4, 5, 6]);
    expect(s.subscriptions[14]?.name).toBe("v1.0 (old)");
    s = applyEvent(s, { type: "subscription", op: "remove", subscriptions: [{ stream_id: 14, name: "v1.0 (old)" }] });
    expect(s.subscribers[14]).toEqual([5, 6]);
    expect(s.subscriptions[14]).toBeUndefined();
    expect(s.channels[14]?.name).toBe("v1.0 (old)");
  });

  test("a channel that goes out of sight takes its subscribers along; peers of unknown channels are not kept", () => {
    let s = applyEvent(state, { type: "stream", op: "delete", streams: [{ stream_id: 14 }], stream_ids: [14] });
    expect(s.subscribers[14]).toBeUndefined();
    s = applyEvent(s, { type: "subscription", op: "peer_add", stream_ids: [14], user_ids: [9] });
    expect(s.subscribers[14]).toBeUndefined();
  });

  test("the organization's channel-creation settings and announcement channel follow realm events", () => {
    let s = applyEvent(state, { type: "realm", op: "update_dict", property: "default", data: { can_create_public_channel_group: 11, can_create_private_channel_group: { direct_members: [4], direct_subgroups: [] } } });
    expect(creatableChannelKinds(s)).toEqual(["private_shared", "private_protected"]);
    s = applyEvent(as(8), { type: "realm", op: "update", property: "enable_spectator_access", value: true });
    expect(creatableChannelKinds(s)).toContain("web_public");
    s = applyEvent(s, { type: "realm", op: "update", property: "new_stream_announcements_stream_id", value: 12 });
    expect(s.realm.new_stream_announcements_stream_id).toBe(12);
  });
});

describe("archived channels", () => {
  const archive = (s: State, id: number) => applyEvent(s, { type: "stream", op: "update", stream_id: id, name: "x", property: "is_archived", value: true });

  test("archiving (the archived_channels capability's stream update) keeps the channel and the subscription, marked archived", () => {
    const s = archive(state, 12);
    expect(s.channels[12]?.is_archived).toBe(true);
    expect(s.subscriptions[12]?.is_archived).toBe(true);
    expect(s.subscribers[12]).toEqual(state.subscribers[12]);
    const back = applyEvent(s, { type: "stream", op: "update", stream_id: 12, name: "x", property: "is_archived", value: false });
    expect([back.channels[12]?.is_archived, back.subscriptions[12]?.is_archived]).toEqual([false, false]);
  });

  test("an archived channel leaves the sidebar unless it is the one open", () => {
    const s = archive(state, 12);
    const shown = (open: number | null) => Object.values(s.subscriptions).filter((c) => inSidebar(c, open)).map((c) => c.stream_id);
    expect(shown(null)).not.toContain(12);
    expect(shown(12)).toContain(12);
    expect(Object.values(state.subscriptions).filter((c) => inSidebar(c, null)).map((c) => c.stream_id)).toContain(12);
  });

  test("Browse channels lists an archived channel only under Archived, and the others only elsewhere", () => {
    const archived = { is_archived: true };
    const live = { is_archived: false };
    expect((["subscribed", "notsubscribed", "all"] as const).map((t) => inBrowseTab(t, archived, true))).toEqual([false, false, false]);
    expect(inBrowseTab("archived", archived, false)).toBe(true);
    expect(inBrowseTab("archived", live, true)).toBe(false);
    expect([inBrowseTab("subscribed", live, true), inBrowseTab("notsubscribed", live, true), inBrowseTab("all", live, false)]).toEqual([true, false, true]);
  });

  test("administrators and the channel's administrators may unarchive; members, guests and live channels not", () => {
    const archivedState = (me: number, patch = {}) => as(me, withChannel(14, { is_archived: true, ...patch }));
    expect(canUnarchive(archivedState(8), 14)).toBe(true);
    expect(canUnarchive(archivedState(4), 14)).toBe(false);
    expect(canUnarchive(archivedState(4, { can_administer_channel_group: { direct_members: [4], direct_subgroups: [] } }), 14)).toBe(true);
    expect(canUnarchive(archivedState(7, { can_administer_channel_group: { direct_members: [7], direct_subgroups: [] } }), 14)).toBe(false);
    expect(canUnarchive(as(8), 14)).toBe(false);
  });
});
