/** A poll: the question (its author may change it), each option with its votes and voters, a vote toggle, new options. */
import { useState } from "preact/hooks";
import { me, users } from "../../state/store";
import type { Message } from "../../state/types";
import { hasOption, questionEvent, voteEvent, type Poll } from "../../state/widgets";
import { useNextIndex, type Send } from "./widget-bits";
import { WidgetTitle } from "./WidgetTitle";

export function PollWidget({ poll, send }: { m: Message; poll: Poll; send: Send }) {
  const myId = me.value;
  const [option, setOption] = useState("");
  const nextIdx = useNextIndex(poll.nextIdx);
  const nameOf = (id: number) => users.value[id]?.full_name ?? "Unknown user";
  const newOption = option.trim();
  const duplicate = newOption !== "" && hasOption(poll, newOption);

  const addOption = (e: Event) => {
    e.preventDefault();
    if (!newOption || duplicate) return;
    send({ type: "new_option", idx: nextIdx(), option: newOption });
    setOption("");
  };

  return (
    <div class="widget poll-widget" role="group" aria-label={`Poll: ${poll.question || "no question yet"}`}>
      <WidgetTitle value={poll.question} canEdit={poll.isAuthor} fieldLabel="Poll question" editLabel="Edit the question" onSave={(q) => send(questionEvent(q))}>
        <span class="poll-question">{poll.question || <em class="muted-text">{poll.isAuthor ? "Add a question" : "No question yet"}</em>}</span>
      </WidgetTitle>
      <ul class="poll-options">
        {poll.options.map((o) => {
          const mine = o.voters.includes(myId);
          const names = o.voters.map(nameOf).join(", ");
          return (
            <li key={o.key} class="poll-option">
              <button
                type="button"
                class={`poll-vote ${mine ? "voted" : ""}`}
                aria-pressed={mine}
                aria-label={`${mine ? "Take back your vote for" : "Vote for"} ${o.option}: ${o.voters.length} ${o.voters.length === 1 ? "vote" : "votes"}`}
                title={names || "No votes yet"}
                onClick={() => send(voteEvent(poll, o.key, myId))}
              >
                {o.voters.length}
              </button>
              <span class="poll-option-text">{o.option}</span>
              {names && <span class="poll-voters">({names})</span>}
            </li>
          );
        })}
      </ul>
      <form key="add" class="widget-add" onSubmit={addOption}>
        <input class="widget-input" aria-label="New option" placeholder="New option" value={option} maxLength={200} onInput={(e) => setOption(e.currentTarget.value)} />
        <button type="submit" class="button subtle" disabled={!newOption || duplicate} title={duplicate ? "This option is already there." : undefined}>
          Add option
        </button>
      </form>
    </div>
  );
}
