/** What the renderer needs to know about the organization: synchronous lookups over preloaded maps. */
export type RenderContext = {
  /** Active users whose full name matches case-insensitively. */
  usersByName(name: string): { id: number; full_name: string }[];
  userById(id: number): { id: number; full_name: string } | undefined;
  /** A user group by exact name (system groups by their `role:…` name). */
  groupByName(name: string): { id: number; name: string } | undefined;
  /** A channel by name (case-insensitive, like Zulip), only if the sender may link to it. */
  streamByName(name: string): { id: number; name: string } | undefined;
  /** An active custom emoji by name. */
  realmEmoji(name: string): { id: number | string; name: string; source_url: string } | undefined;
  /** The organization's URL without a trailing slash, e.g. "https://chat.example.com". */
  realmUrl: string;
  /** Path of uploaded files, e.g. "/user_uploads/". */
  uploadsPathPrefix: string;
  /** Shown for the empty topic in topic links (`realm_empty_topic_display_name`); default "general chat". */
  emptyTopicDisplayName?: string;
  /** Oldest message id of a topic, for `/with/ID` in topic links; without it the link has no `with`. */
  topicLinkMessageId?(streamId: number, topic: string): number | undefined;
  /**
   * Thumbnail facts of an uploaded image. Without this lookup previews show the original image; with it, an
   * upload it does not know (not an image, thumbnailing failed) gets no preview.
   */
  uploadedImage?(pathId: string): UploadedImageInfo | undefined;
  /** The organization's linkifiers, in order. */
  linkifiers?: Linkifier[];
};

export type UploadedImageInfo = {
  /** "{width}x{height}" of the original, after EXIF rotation. */
  originalDimensions?: string;
  contentType?: string;
  /** URL of the default thumbnail; when absent the image is still being thumbnailed (spinner). */
  thumbnailUrl?: string;
  /** URL of the loading spinner shown while no thumbnail exists. */
  placeholderUrl?: string;
  animated?: boolean;
};

/** Zulip's linkifier: a (Python-flavoured) regular expression with named groups and an RFC 6570 URL template. */
export type Linkifier = { id?: number; pattern: string; url_template: string };

export type RenderResult = {
  html: string;
  mentionedUserIds: Set<number>;
  silentlyMentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  wildcard: { stream: boolean; topic: boolean };
  isMeMessage: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Path ids ("2/ab/file.png") of the uploaded files the message links to, each once. */
  uploadPaths: string[];
};

/** The markdown-it `env` of one render. */
export type RenderEnv = {
  ctx: RenderContext;
  result: RenderResult;
};
