/** People chosen with the app's people picker (names as pills, a search box), under a label. */
import { PeoplePicker } from "../../PeoplePicker";
import { useId } from "./save";

interface Props {
  label: string;
  chosen: number[];
  onChange(ids: number[]): void;
  placeholder?: string;
}

export function PersonField({ label, chosen, onChange, placeholder = "Add a person…" }: Props) {
  const id = useId("people");
  return <PeoplePicker chosen={chosen} onChange={onChange} label={label} placeholder={placeholder} idPrefix={id} class="settings-people-picker" inputClass="settings-people-input" />;
}
