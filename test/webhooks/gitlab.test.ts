import { describe, expect, test } from "bun:test";
import { one, run } from "./run";
import * as f from "./fixtures/gitlab";

const gl = (event: string, payload: unknown, params: Record<string, string> = {}) => one("gitlab", payload, { "X-GitLab-Event": event }, params);
const MR = "https://gitlab.example.com/team/parley/-/merge_requests/3";

describe("gitlab", () => {
  test("a push lists its commits under '<project> / <branch>'", () => {
    const m = gl("Push Hook", f.push(2));
    expect(m.topic).toBe("parley / main");
    expect(m.event).toBe("Push Hook");
    expect(m.body).toBe(
      "Ada Lovelace [pushed](https://gitlab.example.com/team/parley/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7) 2 commits to branch main.\n\n" +
        "* Fix thing 1 ([b6568db1bc1](https://gitlab.example.com/team/parley/-/commit/b6568db1bc1d0))\n* Fix thing 2 ([b6568db1bc1](https://gitlab.example.com/team/parley/-/commit/b6568db1bc1d1))",
    );
  });

  test("a branch deleted (after is all zeros); branches= filters by exact name", () => {
    expect(gl("Push Hook", f.push(0, { after: "0".repeat(40) })).body).toBe("Ada Lovelace deleted branch main.");
    expect(run("gitlab", f.push(1), { "X-GitLab-Event": "Push Hook" }, { branches: "mai,dev" })).toEqual([]);
    expect(run("gitlab", f.push(1), { "X-GitLab-Event": "Push Hook" }, { branches: "dev, main" })).toHaveLength(1);
  });

  test("tags pushed and removed", () => {
    expect(gl("Tag Push Hook", f.push(0, { ref: "refs/tags/v1.0" })).body).toBe("Ada Lovelace pushed tag v1.0.");
    expect(gl("Tag Push Hook", f.push(0, { ref: "refs/tags/v1.0", checkout_sha: null })).body).toBe("Ada Lovelace removed tag v1.0.");
  });

  test("merge requests: opened with branches, assignees and description; merged; approved; new commits", () => {
    expect(gl("Merge Request Hook", f.mr("open"))).toEqual({
      topic: "parley / MR #3 Add webhooks",
      event: "Merge Request Hook open",
      body: `Ada Lovelace created [MR #3](${MR}) from \`webhooks\` to \`main\` (assigned to Grace Hopper):\n\n~~~ quote\nAdds incoming webhooks.\n~~~`,
    });
    expect(gl("Merge Request Hook", f.mr("merge")).body).toBe(`Ada Lovelace merged [MR #3](${MR}) from \`webhooks\` to \`main\`.`);
    expect(gl("Merge Request Hook", f.mr("approval")).body).toBe(`Ada Lovelace added their approval for [MR #3](${MR}).`);
    expect(gl("Merge Request Hook", f.mr("update", { oldrev: "abc" })).body).toBe(`Ada Lovelace added commit(s) to [MR #3](${MR}).`);
    expect(gl("Merge Request Hook", f.mr("close"), { use_merge_request_title: "false" }).topic).toBe("parley / MR #3 ");
  });

  test("with a topic in the URL each message links its project and names the title", () => {
    expect(gl("Merge Request Hook", f.mr("reopen"), { topic: "forge" }).body).toBe(`[[parley](https://gitlab.example.com/team/parley)] Ada Lovelace reopened [MR #3 Add webhooks](${MR}).`);
  });

  test("issues: created (template comments dropped), closed; confidential ones too", () => {
    expect(gl("Issue Hook", f.issue("open"))).toEqual({
      topic: "parley / issue #23 Webhook drops",
      event: "Issue Hook open",
      body: "Ada Lovelace created [issue #23](https://gitlab.example.com/team/parley/-/issues/23):\n\n~~~ quote\nIt drops.\n~~~",
    });
    expect(gl("Confidential Issue Hook", f.issue("close")).body).toBe("Ada Lovelace closed [issue #23](https://gitlab.example.com/team/parley/-/issues/23).");
  });

  test("comments on issues, merge requests and commits", () => {
    const onIssue = gl("Note Hook", f.note("Issue", { issue: { iid: 23, title: "Webhook drops", url: "https://gitlab.example.com/team/parley/-/issues/23" } }));
    expect(onIssue.topic).toBe("parley / issue #23 Webhook drops");
    expect(onIssue.body).toBe("Ada Lovelace [commented](https://gitlab.example.com/team/parley/-/issues/23#note_1244) on [issue #23](https://gitlab.example.com/team/parley/-/issues/23):\n\n~~~ quote\nThis is fine.\n~~~");
    expect(gl("Note Hook", f.note("MergeRequest", { merge_request: { iid: 3, title: "Add webhooks", url: MR } })).topic).toBe("parley / MR #3 Add webhooks");
    expect(gl("Note Hook", f.note("Commit", { commit: { id: "da1560886d4f094c3e6c", url: "https://gitlab.example.com/team/parley/-/commit/da15" } })).body).toBe(
      "Ada Lovelace [commented](https://gitlab.example.com/team/parley/-/issues/23#note_1244) on [da1560886d4](https://gitlab.example.com/team/parley/-/commit/da15):\n~~~ quote\nThis is fine.\n~~~",
    );
  });

  test("pipelines list their jobs with artifacts; jobs say their stage", () => {
    expect(gl("Pipeline Hook", f.pipeline)).toEqual({
      topic: "parley / main",
      event: "Pipeline Hook",
      body:
        "[Pipeline (31)](https://gitlab.example.com/team/parley/-/pipelines/31) changed status to failed with build(s):\n" +
        "* [build-image](https://gitlab.example.com/team/parley/-/jobs/380) - success\n  * built artifact: *image.tar* [[Browse](https://gitlab.example.com/team/parley/-/jobs/380/artifacts/browse)|[Download](https://gitlab.example.com/team/parley/-/jobs/380/artifacts/download)]\n" +
        "* [test](https://gitlab.example.com/team/parley/-/jobs/381) - failed.",
    });
    expect(gl("Job Hook", f.job)).toEqual({ topic: "parley / main", event: "Job Hook", body: "Build test from test stage started." });
  });

  test("releases, the test hook, and System Hook names", () => {
    expect(gl("Release Hook", f.release("create")).body).toBe("Release [v1.0](https://gitlab.example.com/team/parley/-/releases/v1.0.0) for tag v1.0.0 was created.\n~~~ quote\nFirst release.\n~~~");
    expect(gl("Release Hook", f.release("delete")).body).toBe("Release v1.0 for tag v1.0.0 was deleted.");
    expect(gl("Test Hook", f.push(0)).body).toBe("Webhook for **parley** has been configured successfully! :tada:");
    expect(gl("System Hook", f.mr("merge")).event).toBe("Merge Request Hook merge");
  });

  test("an event Zulip does not handle is unsupported; the header is required", () => {
    expect(() => run("gitlab", f.mr("frobnicate"), { "X-GitLab-Event": "Merge Request Hook" })).toThrow("The 'Merge Request Hook frobnicate' event isn't currently supported by the GitLab webhook; ignoring");
    expect(() => run("gitlab", f.push(1))).toThrow("Missing the HTTP event header 'X-GitLab-Event'");
  });
});

describe("gitlab: designs, feature flags and expiring tokens", () => {
  test("a comment on a design links the design and quotes the comment, under '<project> / design <name>'", () => {
    const body =
      "Ada Lovelace [commented](https://gitlab.example.com/team/parley/-/issues/23/designs/login-screen.png#note_1250) on design [login-screen.png](https://gitlab.example.com/team/parley/-/issues/23/designs/login-screen.png):\n\n~~~ quote\nThe button is too small.\n~~~";
    expect(gl("Note Hook", f.designNote())).toEqual({ topic: "parley / design login-screen.png", event: "Note Hook DesignManagement::Design", body });
    expect(gl("Confidential Note Hook", f.designNote(true))).toEqual({ topic: "parley / design login-screen.png", event: "Confidential Note Hook DesignManagement::Design", body });
  });

  test("a feature flag activated or deactivated, by the user's username", () => {
    expect(gl("Feature Flag Hook", f.featureFlag(true))).toEqual({
      topic: "parley",
      event: "Feature Flag Hook",
      body: "ada activated the feature flag [new-composer](https://gitlab.example.com/team/parley/-/feature_flags).",
    });
    expect(gl("Feature Flag Hook", f.featureFlag(false)).body).toBe("ada deactivated the feature flag [new-composer](https://gitlab.example.com/team/parley/-/feature_flags).");
  });

  test("an access token about to expire: a project's under the project, a group's under the group's name", () => {
    expect(gl("Resource Access Token Hook", f.accessToken("project"))).toEqual({
      topic: "parley",
      event: "Resource Access Token Hook",
      body: "The access token [deploy-bot](https://gitlab.example.com/team/parley/-/settings/access_tokens) will expire on Feb 03, 2026.",
    });
    expect(gl("Resource Access Token Hook", f.accessToken("group"))).toEqual({
      topic: "Team",
      event: "Resource Access Token Hook",
      body: "The access token [deploy-bot](https://gitlab.com/groups/team/-/settings/access_tokens) will expire on Feb 03, 2026.",
    });
    const bad = f.accessToken("project");
    bad.object_attributes.expires_at = "soon";
    expect(() => gl("Resource Access Token Hook", bad)).toThrow("Invalid payload['object_attributes']['expires_at']");
  });

  test("a System Hook carrying these events is read by its event name", () => {
    expect(gl("System Hook", { ...f.featureFlag(true), event_name: "feature_flag" }).event).toBe("Feature Flag Hook");
  });
});
