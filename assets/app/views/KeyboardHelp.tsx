/** The keyboard shortcuts (`?`), in a dialog. Loaded on first use. */
import { Dialog } from "./Dialog";

const GROUPS: [string, [string[], string][]][] = [
  [
    "Navigation",
    [
      [["/"], "Search messages"],
      [["j", "↓"], "Next message"],
      [["k", "↑"], "Previous message"],
      [["Home"], "First message"],
      [["End"], "Last message"],
      [["n"], "Next unread topic"],
      [["p"], "Next unread direct message"],
      [["Esc"], "Close, cancel, or go back to the home view"],
    ],
  ],
  [
    "Writing",
    [
      [["c"], "New topic"],
      [["x"], "New direct message"],
      [["r", "Enter"], "Reply to the selected message"],
      [["Ctrl", "Enter"], "Send (or Enter, when “Enter sends” is on)"],
    ],
  ],
  [
    "The selected message",
    [
      [["*"], "Star or unstar"],
      [["e"], "Edit your message"],
    ],
  ],
  [
    "Menus and dialogs",
    [
      [["↑", "↓"], "Move between the items of a menu"],
      [["Tab"], "Move between the fields of a dialog"],
      [["?"], "Show these shortcuts"],
    ],
  ],
];

export function KeyboardHelp() {
  return (
    <Dialog title="Keyboard shortcuts" class="help-dialog" readable>
      {GROUPS.map(([title, rows]) => (
        <section class="help-group" key={title}>
          <h3>{title}</h3>
          <table class="help-table">
            <tbody>
              {rows.map(([keys, what]) => (
                <tr key={what}>
                  <td class="help-keys">
                    {keys.map((k, i) => (
                      <>
                        {i > 0 && (k === "Enter" && keys[0] === "Ctrl" ? " + " : " or ")}
                        <kbd>{k}</kbd>
                      </>
                    ))}
                  </td>
                  <td>{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </Dialog>
  );
}
