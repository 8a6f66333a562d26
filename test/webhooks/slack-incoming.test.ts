import { describe, expect, test } from "bun:test";
import { one, run } from "./run";

describe("slack_incoming", () => {
  test("plain text becomes the body; the channel names the topic without its #", () => {
    expect(one("slack_incoming", { text: "Deploy finished", channel: "#deploys" })).toEqual({ topic: "deploys", body: "Deploy finished" });
  });

  test("the URL's topic wins over the payload's channel; with neither the topic is (no topic)", () => {
    expect(one("slack_incoming", { text: "x", channel: "@someone" }, {}, { topic: "mine" }).topic).toBe("mine");
    expect(one("slack_incoming", { text: "x", channel: "@someone" }).topic).toBe("someone");
    expect(one("slack_incoming", { text: "x" }).topic).toBe("(no topic)");
  });

  test("mrkdwn: *bold* and _italic_ become Zulip's, links <url|label> become Markdown links, icon_emoji leads", () => {
    const m = one("slack_incoming", { text: "Service *api* is _down_, see <https://status.example.com/x|the status page>", icon_emoji: ":warning:" });
    expect(m.body).toBe(":warning: Service **api** is *down*, see [the status page](https://status.example.com/x)");
    expect(one("slack_incoming", { text: "a*b*c and snake_case_name stay" }).body).toBe("a*b*c and snake_case_name stay");
  });

  test("blocks: header, section with fields as a table, divider, image, context; actions are skipped", () => {
    const m = one("slack_incoming", {
      blocks: [
        { type: "header", text: { type: "plain_text", text: "Monitor alert" } },
        { type: "section", text: { type: "mrkdwn", text: "*Uptime Kuma*: web is down" }, fields: [{ type: "mrkdwn", text: "Host\nweb-1" }, { type: "plain_text", text: "Since | 10:00" }, { type: "mrkdwn", text: "Code 502" }] },
        { type: "divider" },
        { type: "image", image_url: "https://example.com/graph.png", alt_text: "graph" },
        { type: "context", elements: [{ type: "mrkdwn", text: "from kuma" }, { type: "image", image_url: "https://example.com/i.png", alt_text: "icon" }] },
        { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Ack" } }] },
      ],
    });
    expect(m.body).toBe(
      "## Monitor alert\n\n**Uptime Kuma**: web is down\n\n| | |\n|-|-|\n| Host web-1 | Since   10:00 |\n| Code 502 |  |\n\n----\n\n[graph](https://example.com/graph.png)\n\nfrom kuma\n\n[icon](https://example.com/i.png)",
    );
  });

  test("a section with one field shows it as it is", () => {
    expect(one("slack_incoming", { blocks: [{ type: "section", fields: [{ type: "mrkdwn", text: "only one" }] }] }).body).toBe("only one");
  });

  test("legacy attachments: title with link, pretext, text, fields, image, footer and time", () => {
    const m = one("slack_incoming", {
      attachments: [
        {
          title: "Backup failed",
          title_link: "https://backup.example.com/run/7",
          pretext: "Nightly job",
          text: "Disk full on nas",
          fields: [{ title: "Host", value: "nas" }, { title: "Retry" }, { value: "manual" }, { title: "", value: "" }],
          image_url: "https://example.com/chart.png",
          footer: "restic",
          ts: 1700000000,
        },
      ],
    });
    expect(m.body).toBe("## [Backup failed](https://backup.example.com/run/7)\n\nNightly job\n\nDisk full on nas\n\n**Host**: nas\n**Retry**\nmanual\n\n[](https://example.com/chart.png)\n\nrestic\n\n<time:2023-11-14T22:13:20+00:00>");
  });

  test("blocks win over text (text is the notification fallback); an empty payload posts nothing", () => {
    expect(one("slack_incoming", { text: "fallback", blocks: [{ type: "section", text: { type: "plain_text", text: "real" } }] }).body).toBe("real");
    expect(run("slack_incoming", {})).toEqual([]);
    expect(run("slack_incoming", { text: "", blocks: [] })).toEqual([]);
  });

  test("a block of an unknown type or a text object of the wrong kind is refused with its path", () => {
    expect(() => run("slack_incoming", { blocks: [{ type: "video" }] })).toThrow("Invalid payload['blocks'][0]['type']");
    expect(() => run("slack_incoming", { blocks: [{ type: "header", text: { type: "mrkdwn", text: "x" } }] })).toThrow("Invalid payload['blocks'][0]['text']['type']");
    expect(() => run("slack_incoming", { attachments: [{ title: 5 }] })).toThrow("payload['attachments'][0]['title'] is not a string");
  });
});
