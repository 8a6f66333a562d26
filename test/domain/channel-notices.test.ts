import { describe, expect, test } from "bun:test";
import { channelCreatedNotice, channelsAnnouncedNotice, subscribedYouNotice } from "../../src/domain/channel-notices";

const hamlet = { id: 10, full_name: "King Hamlet" };
const channel = { description: "", invite_only: 0, is_web_public: 0, history_public_to_subscribers: 1 };

describe("Notification Bot's channel notices", () => {
  test("a new channel's notice names its kind, its creator and its description", () => {
    expect(channelCreatedNotice(channel, hamlet)).toBe("**Public** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\n*No description.*\n````");
    expect(channelCreatedNotice({ ...channel, invite_only: 1, history_public_to_subscribers: 0, description: "Secrets" }, hamlet)).toBe(
      "**Private, protected history** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\nSecrets\n````",
    );
    expect(channelCreatedNotice({ ...channel, is_web_public: 1 }, hamlet)).toStartWith("**Web-public** channel");
    expect(channelCreatedNotice({ ...channel, invite_only: 1 }, hamlet)).toStartWith("**Private, shared history** channel");
  });

  test("announcements link the new channels", () => {
    expect(channelsAnnouncedNotice(["Verona"], hamlet)).toBe("@_**King Hamlet|10** created a new channel #**Verona**.");
    expect(channelsAnnouncedNotice(["a", "b"], hamlet)).toBe("@_**King Hamlet|10** created the following channels: #**a**, #**b**.");
  });

  test("the subscribed-you message lists channels in order", () => {
    expect(subscribedYouNotice(hamlet, ["Rome"])).toBe("@_**King Hamlet|10** subscribed you to #**Rome**.");
    expect(subscribedYouNotice(hamlet, ["b", "a"])).toBe("@_**King Hamlet|10** subscribed you to the following channels:\n\n* #**a**\n* #**b**\n");
  });
});
