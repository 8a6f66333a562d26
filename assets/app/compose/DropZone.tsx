/** A message view takes files dropped anywhere on it (its messages or its compose box) and uploads them. */
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { UploadIcon } from "../views/icons-writing";
import { carriesFiles, uploadFiles } from "./uploads";
import { compose } from "./state";

export function DropZone({ class: cls, children }: { class: string; children: ComponentChildren }) {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child: count them
  const depth = useRef(0);
  return (
    <div
      class={`${cls} ${over ? "dropping" : ""}`}
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer!.dropEffect = "copy";
      }}
      onDragLeave={(e) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (!depth.current) setOver(false);
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length) {
          compose.mode.value = "write";
          uploadFiles(files);
        }
      }}
    >
      {children}
      {over && (
        <div class="drop-overlay" aria-hidden="true">
          <UploadIcon size={28} />
          <span>Drop files here to upload them</span>
        </div>
      )}
    </div>
  );
}
