/** The settings screens' form controls: each saves through the API and shows the store's value. */
export { Toggle } from "./Toggle";
export { Select, type Choice } from "./Select";
export { TextField } from "./TextField";
export { TimeLimit, TIME_LIMITS } from "./TimeLimit";
export { GroupSettingPicker, ROLE_GROUPS, toSetting } from "./GroupSetting";
export { PersonField } from "./PersonField";
export { SaveError, SaveStatus, useSaver, useId, type Saver, type SaveState } from "./save";
