/** Choosing the people of a direct message: their names as pills, and a field that finds more by name. */
import { PeoplePicker } from "../views/PeoplePicker";
import { saveDraftSoon } from "./drafts";
import { compose } from "./state";
import { noteTyping } from "./typing";

export function RecipientPicker() {
  const chosen = compose.recipients.value;
  const change = (ids: number[]) => {
    compose.recipients.value = ids;
    noteTyping();
    saveDraftSoon();
  };
  return (
    <PeoplePicker
      class="recipient-picker"
      chosen={chosen}
      onChange={change}
      label="Add a person"
      placeholder={chosen.length ? "Add another person" : "Type a name"}
      idPrefix="recipient"
    />
  );
}
