/**
 * The per-app upload machinery: storage paths, the URL signer, the thumbnail queue and the tus
 * store, created on first use (the App type stays free of upload details).
 */
import type { App } from "../app";
import { BackgroundQueue } from "./background";
import { UrlSigner } from "./signed-url";
import { UploadStorage } from "./storage";
import { TusStore } from "./tus";

export interface UploadsRuntime {
  storage: UploadStorage;
  signer: UrlSigner;
  thumbnails: BackgroundQueue;
  tus: TusStore;
  /** resolves once start-up housekeeping (temp files) is done */
  ready: Promise<void>;
  thumbnailListeners: Set<(attachmentId: number) => void | Promise<void>>;
}

const runtimes = new WeakMap<App, UploadsRuntime>();

export function uploadsOf(app: App): UploadsRuntime {
  let rt = runtimes.get(app);
  if (rt) return rt;
  const storage = new UploadStorage(app.config.storage.uploads_dir);
  const thumbnails = new BackgroundQueue(2, (e) => app.log.error("thumbnail job failed", { error: (e as Error)?.stack ?? String(e) }));
  rt = {
    storage,
    signer: new UrlSigner(),
    thumbnails,
    tus: new TusStore(storage.tusDir),
    ready: storage.cleanTemp().then(
      (n) => {
        if (n) app.log.info("removed interrupted upload temp files", { count: n });
      },
      (e) => app.log.error("cleaning upload temp files failed", { error: String(e) }),
    ),
    thumbnailListeners: new Set(),
  };
  runtimes.set(app, rt);
  // Closing the app waits for thumbnails being written (the database closes right after).
  app.onClose.push(() => thumbnails.idle());
  return rt;
}
