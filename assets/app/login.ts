/**
 * The login page works without JavaScript; with it, the view the person was sent to (a shared
 * `#narrow/...` link) rides along, so they land there after logging in.
 */
import "./styles/login.css";

const next = document.querySelector<HTMLInputElement>("input[name=next]");
if (next && location.hash.length > 1) next.value = location.hash;
