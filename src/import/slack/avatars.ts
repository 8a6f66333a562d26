// People's pictures, as Zulip's Slack import brings them: each person's Slack avatar downloaded and
// stored as their Parley avatar. A download or an image that fails leaves that person on the
// default avatar, logged and counted; the import goes on.
import type { Downloader } from "../common/download";
import type { ImportWriter } from "../common/writer";
import type { SlackUser } from "./people";

/** How many downloads run at once (Zulip's import uses a pool of threads too). */
const PARALLEL = 4;

/**
 * The picture of a Slack person: the largest profile.image_* the export lists, else the address
 * Zulip builds from the avatar hash (ca.slack-edge.com/TEAM-USER-HASH-512). Null: none known.
 */
export function slackAvatarUrl(u: SlackUser): string | null {
  const profile = (u.profile ?? {}) as Record<string, unknown>;
  for (const key of ["image_original", "image_1024", "image_512", "image_192", "image_72"]) {
    const url = profile[key];
    if (typeof url === "string" && url !== "") return url;
  }
  if (typeof profile.avatar_hash === "string" && profile.avatar_hash && u.team_id) return `https://ca.slack-edge.com/${u.team_id}-${u.id}-${profile.avatar_hash}-512`;
  return null;
}

export interface AvatarJob {
  userId: number;
  url: string;
  /** for the log: "users.json: U123 (Ada)" */
  where: string;
}

/** Downloads and stores each avatar; returns how many came in (failures are skips of kind "avatars"). */
export async function importAvatars(
  writer: ImportWriter,
  downloader: Downloader,
  jobs: AvatarJob[],
  skip: (kind: string, where: string, why: string) => void,
  done: () => void = () => {},
): Promise<number> {
  let stored = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      try {
        const got = await downloader.fetch(job.url);
        await writer.setAvatar(job.userId, got.path);
        stored++;
      } catch (e) {
        skip("avatars", job.where, `the avatar was not imported (${(e as Error).message}); the default one is shown`);
      }
      done();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  return stored;
}
