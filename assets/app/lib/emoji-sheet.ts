/** The Google emoji sheet's file (its hashed /static/ URL) and its table: the chunk lib/emoji-set.ts loads on first use. */
import sheetUrl from "../images/emoji-sheet-google-64.png";

export const SHEET_URL: string = sheetUrl;
export { SHEET_CELLS, SHEET_POSITIONS } from "./emoji-sheet-positions";
