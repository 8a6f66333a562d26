/** Creating a user group: name, description and its first members (the creator among them by default). */
import { useState } from "preact/hooks";
import { createGroup } from "../../../api/settings-calls";
import { describeError } from "../../../api/http";
import { state } from "../../../state/store";
import { closeDialog, FormDialog } from "../../Dialog";
import { PersonField, useId } from "../controls";

export function CreateGroupDialog() {
  const s = state.value!;
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [members, setMembers] = useState<number[]>([s.me]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId("group-name");
  const descriptionId = useId("group-description");
  const submit = () => {
    if (!name.trim()) return setError("A group needs a name.");
    setBusy(true);
    setError(null);
    createGroup(name.trim(), description, members).then(
      () => closeDialog(),
      (e) => {
        setBusy(false);
        setError(describeError(e));
      },
    );
  };
  return (
    <FormDialog title="Create user group" class="create-group-dialog" formId="create-group-form" initialFocus={`#${nameId}`} submitLabel="Create" busyLabel="Creating…" busy={busy} error={error} onSubmit={submit}>
      <label for={nameId}>Name</label>
      <input id={nameId} name="group-name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      <label for={descriptionId}>Description</label>
      <textarea id={descriptionId} name="group-description" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <PersonField label="Members" chosen={members} onChange={setMembers} />
    </FormDialog>
  );
}
