import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addUserAlertWords, getAlertWords, removeUserAlertWords } from "../actions/alert-words";
import { zulip } from "../http/plugin";

const AlertWordsArgs = t.Object({ alert_words: t.Array(t.String(), { maxItems: 1000 }) });

/** The caller's alert words. */
export const alertWordRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/users/me/alert_words", async ({ args, me }) => args.success({ alert_words: await getAlertWords(app, me) }), { auth: true })
    .post(
      "/users/me/alert_words",
      async ({ args, me }) => {
        const p = args.read(AlertWordsArgs);
        return args.success({ alert_words: await addUserAlertWords(app, me, p.alert_words) });
      },
      { auth: true },
    )
    .delete(
      "/users/me/alert_words",
      async ({ args, me }) => {
        const p = args.read(AlertWordsArgs);
        return args.success({ alert_words: await removeUserAlertWords(app, me, p.alert_words) });
      },
      { auth: true },
    );
