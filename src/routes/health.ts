import { Elysia } from "elysia";
import type { App } from "../app";
import { databaseAnswers } from "../actions/health";
import { json } from "../http/error-handler";

/** GET /health: for uptime monitors and container health checks. No credentials, no rate limit. */
export const healthRoutes = (app: App) =>
  new Elysia().get("/health", async () => ((await databaseAnswers(app)) ? json({ status: "ok" }) : json({ status: "unavailable" }, 503)));
