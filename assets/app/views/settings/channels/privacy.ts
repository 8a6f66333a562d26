/** A channel's privacy choice as PATCH /streams/{id} takes it, and the words for each. */
import type { ChannelChange } from "../../../api/settings-calls";
import type { ChannelPrivacy } from "../../../state/permissions";

export const PRIVACY_LABEL: Record<ChannelPrivacy, string> = {
  public: "Public",
  private_shared: "Private, shared history",
  private_protected: "Private, protected history",
  web_public: "Web-public",
};

export function privacyChange(p: ChannelPrivacy): ChannelChange {
  switch (p) {
    case "public":
      return { is_private: false, history_public_to_subscribers: true, is_web_public: false };
    case "private_shared":
      return { is_private: true, history_public_to_subscribers: true, is_web_public: false };
    case "private_protected":
      return { is_private: true, history_public_to_subscribers: false, is_web_public: false };
    case "web_public":
      return { is_private: false, history_public_to_subscribers: true, is_web_public: true };
  }
}
