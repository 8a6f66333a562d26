/** The settings screens' form controls: each saves through the API and shows the store's value. */
export { Toggle } from "./Toggle";
export { Select, type Choice } from "./Select";
export { TextField } from "./TextField";
export { TimeLimit } from "./TimeLimit";
export { TIME_LIMITS, customSeconds, limitChoice, toSetting, ROLE_GROUPS, movedIds, droppedIds } from "./values";
export { useDragOrder } from "./drag-order";
export { GroupSettingPicker } from "./GroupSetting";
export { PersonField } from "./PersonField";
export { FormActions, SaveError, SaveStatus, useSaver, useId, type Saver, type SaveState } from "./save";
export { AddPeopleForm } from "./AddPeopleForm";
