/** The web app's entry: its styles, and start-up (boot.tsx). */
import "./styles/index.css";
import { boot } from "./boot";

void boot(document.getElementById("app")!);
