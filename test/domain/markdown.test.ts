import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { topicLinks, type RenderContext, type RenderResult } from "../../src/domain/markdown";
import { isPlainLine, renderMarkdown } from "../../src/domain/markdown/render";
import { md } from "../../src/domain/markdown/md";
import { linkify } from "../../src/domain/markdown/linkify";
import { NORMAL_URL } from "../../src/domain/markdown/md";
import markdownIt from "markdown-it";
import { LinkifyIt } from "linkify-it";

const users = [
  { id: 31, full_name: "Example User" },
  { id: 10, full_name: "Iago" },
  { id: 11, full_name: "King Hamlet" },
  { id: 12, full_name: 'Evil "><img src=x onerror=alert(1)>' },
];
const groups = [
  { id: 17, name: "support" },
  { id: 5, name: "role:administrators" },
  { id: 18, name: "<b>bold</b>" },
];
const streams = [
  { id: 9, name: "announce" },
  { id: 14, name: "dev help" },
  { id: 15, name: "v1.2 (beta)" },
];

function context(extra: Partial<RenderContext> = {}): RenderContext {
  return {
    usersByName: (n) => users.filter((u) => u.full_name.toLowerCase() === n.toLowerCase()),
    userById: (id) => users.find((u) => u.id === id),
    groupByName: (n) => groups.find((g) => g.name === n),
    streamByName: (n) => streams.find((s) => s.name.toLowerCase() === n.toLowerCase()),
    realmEmoji: (n) => (n === "parrot" ? { id: 1, name: "parrot", source_url: "/user_avatars/2/emoji/images/1.gif" } : undefined),
    realmUrl: "http://zulip.testserver",
    uploadsPathPrefix: "/user_uploads/",
    ...extra,
  };
}
const ctx = context();
const html = (content: string, c: RenderContext = ctx) => renderMarkdown(content, c).html;

/** Zulip's documented HTML for each syntax (message-formatting.md and Zulip's own rendering fixtures). */
const ZULIP_CASES: [string, string, string][] = [
  ["an empty message", "", ""],
  ["a paragraph", "test_input", "<p>test_input</p>"],
  ["quotes in text stay unescaped", "it's \"quoted\"", "<p>it's \"quoted\"</p>"],
  ["a newline is a line break", "test\nbar", "<p>test<br>\nbar</p>"],
  ["emphasis", "*foo*", "<p><em>foo</em></p>"],
  ["strong", "**foo**", "<p><strong>foo</strong></p>"],
  ["strong emphasis nests strong outside", "***foo***", "<p><strong><em>foo</em></strong></p>"],
  ["underscores are not emphasis", "_foo_ __foo__", "<p>_foo_ __foo__</p>"],
  ["stray stars are text", "const char *x = (char *)y", "<p>const char *x = (char *)y</p>"],
  ["strikethrough", "I like ~~software~~ hardware", "<p>I like <del>software</del> hardware</p>"],
  ["inline code escapes HTML", "`<&nbsp;>`", "<p><code>&lt;&amp;nbsp;&gt;</code></p>"],
  ["a heading", "# Hello world", "<h1>Hello world</h1>"],
  ["a heading needs a space", "#Hello world", "<p>#Hello world</p>"],
  [
    "a fenced code block with a language",
    "Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~",
    '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  [
    "an unknown language is kept as written",
    "``` inventedlanguage\ndef speak(self):\n    x = 1\n```",
    '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  [
    "a language alias gets its canonical name",
    "``` py2\nx\n```",
    '<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code>x\n</code></pre></div>',
  ],
  [
    "code blocks escape like Pygments and plain text keeps entities decoded",
    "& &amp; &amp;amp;\n~~~~\n& &amp; &amp;amp;\n~~~~\n    & &amp; &amp;amp;",
    '<p>&amp; &amp; &amp;amp;</p>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>',
  ],
  [
    "trailing whitespace in code lines is dropped",
    "Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n\n    z = 3       \n~~~~\nAnd all was good.",
    '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n\n    z = 3\n</code></pre></div>\n<p>And all was good.</p>',
  ],
  [
    "quotes inside code are escaped",
    '```\necho "it\'s"\n```',
    '<div class="codehilite"><pre><span></span><code>echo &quot;it&#39;s&quot;\n</code></pre></div>',
  ],
  [
    "a quote fence",
    "Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~",
    "<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>",
  ],
  [
    "a quote fence holding a > quote",
    "Hamlet said:\n~~~ quote\nPolonius said:\n> This above all: to thine ownself be true,\nAnd it must follow, as the night the day,\nThou canst not then be false to any man.\n\nWhat good advice!\n~~~",
    "<p>Hamlet said:</p>\n<blockquote>\n<p>Polonius said:</p>\n<blockquote>\n<p>This above all: to thine ownself be true,<br>\nAnd it must follow, as the night the day,<br>\nThou canst not then be false to any man.</p>\n</blockquote>\n<p>What good advice!</p>\n</blockquote>",
  ],
  [
    "a quote fence then a > quote",
    "```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.",
    "<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>",
  ],
  [
    "a code block inside a quote fence does not end it",
    "```quote\nlook:\n```js\nx()\n```\nok\n```\nafter",
    '<blockquote>\n<p>look:</p>\n<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>x()\n</code></pre></div>\n<p>ok</p>\n</blockquote>\n<p>after</p>',
  ],
  [
    "bulleted lists",
    "Some text with a list:\n\n- One item\n- Two items\n- Three items",
    "<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>",
  ],
  [
    "a list hanging off a paragraph",
    "Some text with a hanging list:\n* One item\n* Two items",
    "<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>",
  ],
  [
    "a nested list follows its item's text",
    "Nested list\n* I am outer list\n  * I am inner nested list first item\n  * I am inner nested list second item",
    "<p>Nested list</p>\n<ul>\n<li>I am outer list<ul>\n<li>I am inner nested list first item</li>\n<li>I am inner nested list second item</li>\n</ul>\n</li>\n</ul>",
  ],
  [
    "a loose list",
    "Plain list\n\n* Alpha\n\n* Beta\n\nThen hang it off:\n* Ypsilon\n* Zeta",
    "<p>Plain list</p>\n<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>\n<p>Then hang it off:</p>\n<ul>\n<li>Ypsilon</li>\n<li>Zeta</li>\n</ul>",
  ],
  ["a numbered list keeps its start", "3. A\n3. B\n3. C\n3. D", '<ol start="3">\n<li>A</li>\n<li>B</li>\n<li>C</li>\n<li>D</li>\n</ol>'],
  [
    "a table",
    "This is a table:\n\nFirst header  | Second header\n------------- | -------------\nContent cell  | Content cell\nContent cell  | Content cell\n",
    "<p>This is a table:</p>\n<table>\n<thead>\n<tr>\n<th>First header</th>\n<th>Second header</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n</tbody>\n</table>",
  ],
  [
    "table alignment uses Python-Markdown's style",
    "a | b\n:- | -:\n1 | 2",
    '<table>\n<thead>\n<tr>\n<th style="text-align: left;">a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style="text-align: left;">1</td>\n<td style="text-align: right;">2</td>\n</tr>\n</tbody>\n</table>',
  ],
  ["a link", "[hello](https://github.com)", '<p><a href="https://github.com">hello</a></p>'],
  ["a link without text shows its URL", "[](https://github.com)", '<p><a href="https://github.com">https://github.com</a></p>'],
  ["an autolink", "https://github.com", '<p><a href="https://github.com">https://github.com</a></p>'],
  ["a bare domain gets http://", "with short example.com url", '<p>with short <a href="http://example.com">example.com</a> url</p>'],
  ["file names are not domains", "python class views.py is readme.md", "<p>python class views.py is readme.md</p>"],
  ["trailing punctuation stays outside", "end of sentence https://t.co.", '<p>end of sentence <a href="https://t.co">https://t.co</a>.</p>'],
  ["an email address", "a@b.com", '<p><a href="mailto:a@b.com">a@b.com</a></p>'],
  ["a local narrow link becomes relative", "[foo](http://zulip.testserver/#narrow/stream/1-Denmark)", '<p><a href="#narrow/stream/1-Denmark">foo</a></p>'],
  ["another path on the server stays absolute", "[foo](http://zulip.testserver/https://example.com)", '<p><a href="http://zulip.testserver/https://example.com">foo</a></p>'],
  ["tel and sms links", "[call me](tel:+14155551234) [or maybe not](sms:+14155551234)", '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or maybe not</a></p>'],
  ["reference links are not supported", "Hello [world]\n\n[world]: https://google.com", '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>'],
  [
    "a spoiler",
    "```spoiler header\ncontent\n```\noutside spoiler\n",
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  ],
  [
    "a spoiler without a header",
    "```spoiler\ncontent\n```\noutside spoiler\n",
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  ],
  [
    "a spoiler inside a quote",
    "~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote",
    '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>',
  ],
  [
    "a spoiler header is Markdown",
    "```spoiler [Header](https://example.com) :smiley:\ncontent\n```",
    '<div class="spoiler-block"><div class="spoiler-header">\n<p><a href="https://example.com">Header</a> <span aria-label="smiley" class="emoji emoji-1f603" role="img" title="smiley">:smiley:</span></p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
  ],
  ["a named emoji", ":poop:", '<p><span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span></p>'],
  // Zulip 10.x's names, not emoji-datasource's: :smile: is 🙂 (1f642), 😄 (1f604) is :big_smile:.
  ["Zulip's smile", ":smile: :big_smile:", '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> <span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span></p>'],
  // An alias keeps the name as written (zulip-flutter's content tests show the same HTML).
  [
    "Unicode emoji take Zulip's canonical name",
    "🙂😄👍❤️",
    '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span><span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span></p>',
  ],
  ["an alias", ":thumbs_up:", '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>'],
  ["a name with non-ASCII letters", ":flag_åland_islands:", '<p><span aria-label="flag åland islands" class="emoji emoji-1f1e6-1f1fd" role="img" title="flag åland islands">:flag_åland_islands:</span></p>'],
  ["emoji-datasource names Zulip does not use stay text", ":thumbsup: :slightly_smiling_face:", "<p>:thumbsup: :slightly_smiling_face:</p>"],
  [
    "emoji without spaces",
    ":smiley:hello:poop::airplane:",
    '<p><span aria-label="smiley" class="emoji emoji-1f603" role="img" title="smiley">:smiley:</span>hello<span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span><span aria-label="airplane" class="emoji emoji-2708" role="img" title="airplane">:airplane:</span></p>',
  ],
  ["unknown emoji names stay text", ":) x::y::z :not_an_emoji: :skin-tone-2:", "<p>:) x::y::z :not_an_emoji: :skin-tone-2:</p>"],
  ["emoji inside emphasis markers", "Testing *:smiley*: :sm*iley*: Testing", "<p>Testing <em>:smiley</em>: :sm<em>iley</em>: Testing</p>"],
  ["a Unicode emoji", "Extra👽Terrestrial", '<p>Extra<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span>Terrestrial</p>'],
  [
    "Unicode emoji sequences",
    "🤷‍♀️ 👁‍🗨 #️⃣",
    '<p><span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span> <span aria-label="eye in speech bubble" class="emoji emoji-1f441-200d-1f5e8" role="img" title="eye in speech bubble">:eye_in_speech_bubble:</span> <span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>',
  ],
  [
    "unknown emoji sequences stay text",
    "normal lemon 🍋, purple lemon? 🍋‍🟪 and 👨🏿‍🦽",
    '<p>normal lemon <span aria-label="lemon" class="emoji emoji-1f34b" role="img" title="lemon">:lemon:</span>, purple lemon? 🍋‍🟪 and 👨🏿‍🦽</p>',
  ],
  ["the zulip emoji", ":zulip:", '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>'],
  ["a custom emoji", ":parrot:", '<p><img alt=":parrot:" class="emoji" src="/user_avatars/2/emoji/images/1.gif" title="parrot"></p>'],
  ["a user mention", "@**Example User**", '<p><span class="user-mention" data-user-id="31">@Example User</span></p>'],
  ["a silent user mention", "@_**Example User**", '<p><span class="user-mention silent" data-user-id="31">Example User</span></p>'],
  ["the topic wildcard", "@**topic**", '<p><span class="topic-mention">@topic</span></p>'],
  ["the channel wildcard", "@**channel**", '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>'],
  ["a group mention", "@*support*", '<p><span class="user-group-mention" data-user-group-id="17">@support</span></p>'],
  ["a silent group mention", "@_*support*", '<p><span class="user-group-mention silent" data-user-group-id="17">support</span></p>'],
  ["a silent system group mention shows its display name", "@_*role:administrators*", '<p><span class="user-group-mention silent" data-user-group-id="5">Administrators</span></p>'],
  ["a channel link", "#**announce**", '<p><a class="stream" data-stream-id="9" href="/#narrow/channel/9-announce">#announce</a></p>'],
  [
    "a topic link",
    "#**announce>Zulip updates**",
    '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic/Zulip.20updates">#announce &gt; Zulip updates</a></p>',
  ],
  [
    "a link to the empty topic",
    "#**announce>**",
    '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic/">#announce &gt; <em>general chat</em></a></p>',
  ],
  [
    "a message link",
    "#**announce>Zulip updates@214**",
    '<p><a class="message-link" href="/#narrow/channel/9-announce/topic/Zulip.20updates/near/214">#announce &gt; Zulip updates @ 💬</a></p>',
  ],
  ["HTML is text", "<h1>stay normal</h1> thanks", "<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>"],
  ["a script tag is text", "<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
  ["nested script tags are text", "<<script>script>evil()<</script>/script>", "<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>"],
  [
    "a spoiler with script tags",
    "```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```",
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
  ],
  ["a global time", "Let's meet at <time:1496701800>.", '<p>Let\'s meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>'],
  ["a global time as a date", "<time:31 Dec 2017>", '<p><time datetime="2017-12-31T00:00:00Z">31 Dec 2017</time></p>'],
  ["an invalid global time", "<time:<alert(1)>>", '<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>'],
];

describe("rendering compared with Zulip's HTML", () => {
  for (const [name, input, expected] of ZULIP_CASES) {
    test(`renders ${name}`, () => {
      expect(html(input)).toBe(expected);
    });
  }
});

describe("mentions", () => {
  test("a user mention flags the user and a silent one does not", () => {
    const r = renderMarkdown("hi @**Example User** and @_**Iago**", ctx);
    expect([...r.mentionedUserIds]).toEqual([31]);
    expect([...r.silentlyMentionedUserIds]).toEqual([10]);
    expect(r.wildcard).toEqual({ stream: false, topic: false });
  });

  test("names match case-insensitively and show the user's current name", () => {
    expect(html("@**king hamlet**")).toBe('<p><span class="user-mention" data-user-id="11">@King Hamlet</span></p>');
  });

  test("the name|id syntax picks the user by id and checks the name", () => {
    const r = renderMarkdown("@**Iago|10** @**|31**", ctx);
    expect(r.html).toBe(
      '<p><span class="user-mention" data-user-id="10">@Iago</span> <span class="user-mention" data-user-id="31">@Example User</span></p>',
    );
    expect([...r.mentionedUserIds].sort()).toEqual([10, 31]);
    const wrong = renderMarkdown("@**Example User|10**", ctx);
    expect(wrong.mentionedUserIds.size).toBe(0);
    expect(wrong.html).not.toContain("user-mention");
  });

  test("a mention of nobody renders as the text it was (its stars as Markdown)", () => {
    const r = renderMarkdown("@**Nobody Here** @*no group*", ctx);
    expect(r.html).toBe("<p>@<strong>Nobody Here</strong> @<em>no group</em></p>");
    expect(r.mentionedUserIds.size + r.mentionedGroupIds.size).toBe(0);
  });

  test("all, everyone, channel and stream are channel wildcards; topic is the topic wildcard", () => {
    for (const w of ["all", "everyone", "channel", "stream"]) {
      const r = renderMarkdown(`@**${w}**`, ctx);
      expect(r.wildcard).toEqual({ stream: true, topic: false });
      expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`);
    }
    expect(renderMarkdown("@**topic**", ctx).wildcard).toEqual({ stream: false, topic: true });
  });

  test("a silent wildcard sets no flag", () => {
    const r = renderMarkdown("@_**all** @_**topic**", ctx);
    expect(r.wildcard).toEqual({ stream: false, topic: false });
    expect(r.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
  });

  test("group mentions flag the group unless silent", () => {
    expect([...renderMarkdown("@*support*", ctx).mentionedGroupIds]).toEqual([17]);
    expect(renderMarkdown("@_*support*", ctx).mentionedGroupIds.size).toBe(0);
  });

  test("mentions need a boundary before them and are not parsed in code", () => {
    const r = renderMarkdown("mail@**Iago** `@**Iago**`\n```\n@**Iago**\n```", ctx);
    expect(r.mentionedUserIds.size).toBe(0);
    expect(renderMarkdown("(@**Iago**)", ctx).mentionedUserIds.has(10)).toBe(true);
  });
});

describe("channel and topic links", () => {
  test("names are encoded the way Zulip encodes narrow URLs", () => {
    expect(html("#**dev help>v1.2 (beta) ünïcode**")).toBe(
      '<p><a class="stream-topic" data-stream-id="14" href="/#narrow/channel/14-dev-help/topic/v1.2E2.20.28beta.29.20.C3.BCn.C3.AFcode">#dev help &gt; v1.2 (beta) ünïcode</a></p>',
    );
    expect(html("#**v1.2 (beta)**")).toBe(
      '<p><a class="stream" data-stream-id="15" href="/#narrow/channel/15-v1.2E2-.28beta.29">#v1.2 (beta)</a></p>',
    );
  });

  test("an unknown channel stays text", () => {
    expect(html("#**secret**")).toBe("<p>#<strong>secret</strong></p>");
  });

  test("topic links carry /with/ when the oldest message id is known, and the empty topic's display name", () => {
    const c = context({ topicLinkMessageId: () => 214, emptyTopicDisplayName: "chat" });
    expect(html("#**announce>Zulip updates** #**announce>**", c)).toBe(
      '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic/Zulip.20updates/with/214">#announce &gt; Zulip updates</a> <a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic//with/214">#announce &gt; <em>chat</em></a></p>',
    );
  });
});

describe("/me messages", () => {
  test("content starting with /me is a me message, rendered as written", () => {
    const r = renderMarkdown("/me is happy", ctx);
    expect(r.isMeMessage).toBe(true);
    expect(r.html).toBe("<p>/me is happy</p>");
    expect(renderMarkdown("/meh", ctx).isMeMessage).toBe(false);
    expect(renderMarkdown("hi /me there", ctx).isMeMessage).toBe(false);
  });
});

describe("links, uploads and image previews", () => {
  test("a plain message has no link, image or attachment", () => {
    const r = renderMarkdown("just words", ctx);
    expect([r.hasLink, r.hasImage, r.hasAttachment, r.uploadPaths]).toEqual([false, false, false, []]);
  });

  test("a link sets has_link", () => {
    expect(renderMarkdown("see https://example.com", ctx).hasLink).toBe(true);
    expect(renderMarkdown("[x](https://example.com)", ctx).hasLink).toBe(true);
  });

  test("an uploaded image gets Zulip's preview after its paragraph", () => {
    const r = renderMarkdown("[image.png](/user_uploads/2/ab/file.png)", ctx);
    expect(r.html).toBe(
      '<p><a href="/user_uploads/2/ab/file.png">image.png</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ab/file.png" title="image.png"><img src="/user_uploads/2/ab/file.png"></a></div>',
    );
    expect([r.hasLink, r.hasImage, r.hasAttachment]).toEqual([true, true, true]);
    expect(r.uploadPaths).toEqual(["2/ab/file.png"]);
  });

  test("a bare link to an uploaded image is replaced by its preview", () => {
    const r = renderMarkdown("http://zulip.testserver/user_uploads/2/ab/x.png", ctx);
    expect(r.html).toBe('<div class="message_inline_image"><a href="/user_uploads/2/ab/x.png"><img src="/user_uploads/2/ab/x.png"></a></div>');
    expect(r.uploadPaths).toEqual(["2/ab/x.png"]);
  });

  test("thumbnail facts give Zulip's thumbnail and placeholder markup", () => {
    const thumb = context({
      uploadedImage: (p) =>
        p === "2/ab/a.png"
          ? { originalDimensions: "1920x1080", contentType: "image/png", thumbnailUrl: "/user_uploads/thumbnail/2/ab/a.png/840x560.webp" }
          : { originalDimensions: "10x10", contentType: "image/gif" },
    });
    expect(html("[a.png](/user_uploads/2/ab/a.png)\n[b.gif](/user_uploads/2/ab/b.gif)", thumb)).toBe(
      '<p><a href="/user_uploads/2/ab/a.png">a.png</a><br>\n<a href="/user_uploads/2/ab/b.gif">b.gif</a></p>\n' +
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/a.png" title="a.png"><img data-original-dimensions="1920x1080" data-original-content-type="image/png" src="/user_uploads/thumbnail/2/ab/a.png/840x560.webp"></a></div>' +
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/b.gif" title="b.gif"><img class="image-loading-placeholder" data-original-dimensions="10x10" data-original-content-type="image/gif" src="/static/images/loading/loader-black.svg"></a></div>',
    );
  });

  test("an upload the thumbnail facts do not know (failed, not an image) gets no preview", () => {
    const known = context({ uploadedImage: (p) => (p === "2/ab/ok.png" ? { originalDimensions: "5x5", contentType: "image/png" } : undefined) });
    expect(html("[bad.png](/user_uploads/2/ab/bad.png)", known)).toBe('<p><a href="/user_uploads/2/ab/bad.png">bad.png</a></p>');
    expect(html("http://zulip.testserver/user_uploads/2/ab/bad.png", known)).toBe(
      '<p><a href="user_uploads/2/ab/bad.png">http://zulip.testserver/user_uploads/2/ab/bad.png</a></p>',
    );
    expect(html("[bad.png](/user_uploads/2/ab/bad.png) [ok.png](/user_uploads/2/ab/ok.png)", known)).toContain(
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/ok.png" title="ok.png"><img class="image-loading-placeholder"',
    );
  });

  test("previews go inside tight list items, once per image, and never in quotes", () => {
    expect(html("* a\n* [p.png](/user_uploads/2/ab/p.png) [again](/user_uploads/2/ab/p.png)")).toBe(
      '<ul>\n<li>a</li>\n<li><a href="/user_uploads/2/ab/p.png">p.png</a> <a href="/user_uploads/2/ab/p.png">again</a><div class="message_inline_image"><a href="/user_uploads/2/ab/p.png" title="p.png"><img src="/user_uploads/2/ab/p.png"></a></div></li>\n</ul>',
    );
    const quoted = renderMarkdown("> [q.png](/user_uploads/2/ab/q.png)", ctx);
    expect(quoted.html).toBe('<blockquote>\n<p><a href="/user_uploads/2/ab/q.png">q.png</a></p>\n</blockquote>');
    expect(quoted.uploadPaths).toEqual(["2/ab/q.png"]);
  });

  test("a non-image upload is an attachment without preview; paths are decoded and listed once", () => {
    const r = renderMarkdown("[doc](/user_uploads/2/cd/my%20notes.pdf) [again](/user_uploads/2/cd/my%20notes.pdf)", ctx);
    expect(r.html).not.toContain("message_inline_image");
    expect([r.hasAttachment, r.hasImage]).toEqual([true, false]);
    expect(r.uploadPaths).toEqual(["2/cd/my notes.pdf"]);
  });

  test("image syntax renders as a link to the image", () => {
    const r = renderMarkdown("![cat](/user_uploads/2/ab/cat.jpg)", ctx);
    expect(r.html).toBe(
      '<p><a href="/user_uploads/2/ab/cat.jpg">cat</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ab/cat.jpg" title="cat"><img src="/user_uploads/2/ab/cat.jpg"></a></div>',
    );
  });

  test("external images are plain links", () => {
    expect(html("https://example.com/a.png")).toBe('<p><a href="https://example.com/a.png">https://example.com/a.png</a></p>');
  });
});

describe("linkifiers", () => {
  const linkifiers = [{ pattern: "#(?P<id>[0-9]+)", url_template: "https://github.com/zulip/zulip/issues/{id}" }];

  test("apply to message text outside links and code", () => {
    const r = renderMarkdown("fixes #123, not `#4` nor a#5", context({ linkifiers }));
    expect(r.html).toBe('<p>fixes <a href="https://github.com/zulip/zulip/issues/123">#123</a>, not <code>#4</code> nor a#5</p>');
    expect(r.hasLink).toBe(true);
  });

  test("give a topic's links, then its raw URLs, in order", () => {
    expect(topicLinks("#42 see https://example.com/x and zulip.com", linkifiers)).toEqual([
      { text: "#42", url: "https://github.com/zulip/zulip/issues/42" },
      { text: "https://example.com/x", url: "https://example.com/x" },
      { text: "zulip.com", url: "https://zulip.com" },
    ]);
    expect(topicLinks("plain topic")).toEqual([]);
  });

  test("a linkifier whose URL would be unsafe is ignored", () => {
    const bad = [{ pattern: "x(?P<v>[0-9]+)", url_template: "javascript:alert({v})" }];
    expect(html("x1", context({ linkifiers: bad }))).toBe("<p>x1</p>");
  });
});

/** Every tag and attribute the renderer may produce; anything else means input leaked through. */
const SAFE_TAGS = new Set([
  "p", "br", "em", "strong", "del", "code", "pre", "div", "span", "a", "img", "blockquote", "ul", "ol", "li",
  "table", "thead", "tbody", "tr", "th", "td", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "time",
]);
const SAFE_ATTRS = new Set([
  "class", "href", "title", "src", "alt", "aria-label", "aria-hidden", "role", "data-user-id", "data-user-group-id",
  "data-stream-id", "data-code-language", "style", "start", "datetime", "data-original-dimensions",
  "data-original-content-type", "data-animated",
]);

function assertInert(out: string): void {
  for (const m of out.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    expect(SAFE_TAGS.has(m[1]!.toLowerCase())).toBe(true);
    const attrs = m[2]!;
    // Attributes are name="value" pairs with no stray quotes or angle brackets in values.
    const rest = attrs.replace(/\s+([a-z-]+)="([^"<>]*)"/g, (_, name: string, value: string) => {
      expect(SAFE_ATTRS.has(name)).toBe(true);
      if (name === "href" || name === "src") expect(value).toMatch(/^(https?:|mailto:|tel:|sms:|ftp:|\/|#|user_uploads\/)/i);
      if (name === "style") expect(value).toMatch(/^text-align: (left|right|center);$/);
      return "";
    });
    expect(rest.trim()).toBe("");
  }
  expect(out).not.toMatch(/<script/i);
}

describe("no script injection survives rendering", () => {
  const attacks = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](jav&#x09;ascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<javascript:alert(1)>",
    "![x](javascript:alert(1))",
    '[x](https://example.com "title\\" onmouseover=\\"alert(1)")',
    '[x](https://example.com/"onmouseover="alert(1))',
    "[x](<https://example.com/\" onclick=\"alert(1)>)",
    '```" onclick="alert(1)\ncode\n```',
    '```spoiler "><script>alert(1)</script>\nbody\n```',
    "@**Evil \"><img src=x onerror=alert(1)>**",
    "@*<b>bold</b>*",
    '<time:"><script>alert(1)</script>>',
    "#**announce>\"><svg onload=alert(1)>**",
    ":<img src=x onerror=alert(1)>:",
    "javascript:alert(1)",
    "https://example.com/<script>",
  ];

  for (const attack of attacks) {
    test(`renders ${JSON.stringify(attack)} inert`, () => {
      const out = html(attack);
      assertInert(out);
      expect(out).not.toMatch(/<(script|svg|iframe|b)[\s>]/i);
      expect(out).not.toMatch(/<[^>]*\son\w+=/i);
    });
  }

  test("a user name with markup is escaped inside the mention", () => {
    expect(html("@**Evil \"><img src=x onerror=alert(1)>**")).toBe(
      '<p><span class="user-mention" data-user-id="12">@Evil "&gt;&lt;img src=x onerror=alert(1)&gt;</span></p>',
    );
  });

  test("link titles are dropped, so they cannot break out of an attribute", () => {
    expect(html('[x](https://example.com "a\\" onmouseover=\\"alert(1)")')).toBe('<p><a href="https://example.com">x</a></p>');
  });

  test("a link with no destination stays literal text (no empty href)", () => {
    expect(html("[]()")).toBe("<p>[]()</p>");
    expect(html("[x]() and [y](https://a.com)")).toBe('<p>[x]() and <a href="https://a.com">y</a></p>');
  });

  test("disallowed link schemes stay literal text", () => {
    expect(html("[x](javascript:alert(1))")).toBe("<p>[x](javascript:alert(1))</p>");
    expect(html("[x](data:text/html,hi)")).toBe("<p>[x](data:text/html,hi)</p>");
  });

  test("random mixes of Markdown and HTML fragments always render inert", () => {
    const fragment = fc.constantFrom(
      "<script>", "</script>", "<img src=x onerror=alert(1)>", "javascript:", "[", "](", ")", "(", "\"", "'", "`", "```",
      "~~~", "*", "**", "_", "@**", "@*", "@_**", "#**", ">", "\n", " ", "|", "-", ":", "smile", "Iago", "support",
      "announce", "https://x.com/", "/user_uploads/2/ab/f.png", "<time:", "&#106;", "&quot;", "onload=", "spoiler", "quote",
      "Evil \"><img src=x onerror=alert(1)>", "1. ", "* ", "    ", "&", "<", "a.md", "👍", "🤷‍♀️",
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        assertInert(html(parts.join("")));
      }),
      { numRuns: 500 },
    );
  });
});

describe("linkify's quick refusal", () => {
  const plain = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });
  const pieces = ["a", "b", " ", "x", ".", ":", "/", "@", "[", "IPv6", "http", "HTTPS", "ftp", "mailto", "www", "com", "org", "localhost", "1", "::1", "-", "_", "é", "рф", "例子", "，", "?", "#", "*"];
  test("answers exactly as linkify-it does, on texts built from link-like pieces", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(linkify.test(text)).toBe(plain.test(text));
      }),
      { numRuns: 3000 },
    );
  });
  test("still finds links, e-mails and schemes", () => {
    for (const text of ["see example.com", "mail me at a@b.org", "http://localhost:8080", "//cdn.example/x", "mailto:x@y", "x@[IPv6:::1]"]) expect(linkify.test(text)).toBe(true);
    expect(linkify.test("Hello @**Bench User 3**, how is it going? :smile:")).toBe(false);
  });
  test("a paragraph whose only URLs are link targets skips the full test, and renders the same", () => {
    const push = "bench [pushed](https://github.com/b/app/compare/a...b) 2 commits to branch main.";
    expect(linkify.test(push)).toBe(false);
    expect(plain.test(push)).toBe(true);
    expect(html(push)).toBe('<p>bench <a href="https://github.com/b/app/compare/a...b">pushed</a> 2 commits to branch main.</p>');
  });
  test("a bare URL beside a link, or after an escaped bracket, is still made a link", () => {
    expect(html("[a](https://x.com) and https://y.com")).toBe('<p><a href="https://x.com">a</a> and <a href="https://y.com">https://y.com</a></p>');
    expect(linkify.test("\\[a](https://x.com)")).toBe(true);
    expect(html("\\[a](https://x.com)")).toContain('<a href="https://x.com">https://x.com</a>');
    expect(linkify.test("[a](https://x.com \"t\") and y.com")).toBe(true);
  });
});

describe("links' URLs kept as they are", () => {
  const stock = markdownIt();
  const chars = "abcXYZ019-._~!$&'()*+,;=:@/?#%[] éü\\\"<>^`{|}".split("");
  test("every URL the quick path keeps is one markdown-it's normalizeLink returns unchanged", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("http://", "https://", "HTTPS://"),
        fc.array(fc.constantFrom(..."abcz09.-".split("")), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(...chars), { maxLength: 20 }),
        (scheme, host, rest) => {
          const url = `${scheme}${host.join("")}/${rest.join("")}`;
          if (NORMAL_URL.test(url)) expect(stock.normalizeLink(url)).toBe(url);
        },
      ),
      { numRuns: 5000 },
    );
  });
  test("a URL outside it is still normalized", () => {
    expect(NORMAL_URL.test("https://exämple.com/a b")).toBe(false);
    expect(html("[x](https://exämple.com/ä)")).toBe('<p><a href="https://xn--exmple-cua.com/%C3%A4">x</a></p>');
  });
});

describe("the plain-line fast path", () => {
  // every character the fast path takes, and some it must leave to markdown-it
  const taken = ["a", "Z", "0", "9", " ", "  ", ",", "?", ";", "'", '"', "%", "word", "ok"];
  const refused = [".", ":", "@", "*", "_", "#", "-", "&", "<", "\n", "é", "😀", "/", "(", "[", "~", "|", "$", "!", "\\", "`", "\t"];
  const fullRender = (content: string, c: RenderContext) => md.render(content, { ctx: c, result: renderMarkdown("x .", c) }).replace(/\n+$/, "");
  test("answers what markdown-it answers, for lines of the characters it takes", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...taken), { minLength: 1, maxLength: 20 }), (parts) => {
        const text = parts.join("");
        const r = renderMarkdown(text, ctx);
        expect(r.html).toBe(fullRender(text, ctx));
        expect([r.mentionedUserIds.size, r.hasLink, r.isMeMessage, r.wildcard.stream, r.uploadPaths.length]).toEqual([0, false, false, false, 0]);
      }),
      { numRuns: 2000 },
    );
  });
  test("is taken only by lines without any other character, edge spaces or linkifiers", () => {
    expect(isPlainLine("Sounds good, see you at 5?")).toBe(true);
    for (const c of refused) expect(isPlainLine(`hello ${c} there`)).toBe(false);
    for (const text of [" indented", "    code", "trailing ", ""]) expect(isPlainLine(text)).toBe(false);
    const withLinkifier = context({ linkifiers: [{ pattern: "ABC(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" }] });
    expect(html("see ABC123 now", withLinkifier)).toContain('href="https://tracker.example/123"');
  });
});

describe("the mention-line fast path", () => {
  // plain-line characters, mentions and emoji known and unknown, and characters that send a line to markdown-it
  const pieces = [
    "a", "Z", "0", " ", "  ", ",", "?", ";", "'", '"', "%", "Hello", "how is it going",
    "@**Iago**", "@**king hamlet**", "@_**Iago**", "@**Iago|10**", "@**Example|31**", "@**all**", "@**everyone**", "@**topic**",
    "@_**all**", "@*support*", "@_*support*", "@*role:administrators*", "@*<b>bold</b>*", "@**Nobody**", "@*nogroup*",
    '@**Evil "><img src=x onerror=alert(1)>**', ":smile:", ":parrot:", ":zulip:", ":+1:", ":nope:", ":notanemoji:", ":", "@", "*", "**", "_", ".", "\n", "#", "-", "<", "&",
  ];
  const fresh = (): RenderResult => ({
    html: "", mentionedUserIds: new Set(), silentlyMentionedUserIds: new Set(), mentionedGroupIds: new Set(),
    wildcard: { stream: false, topic: false }, isMeMessage: false, hasLink: false, hasImage: false, hasAttachment: false, uploadPaths: [],
  });
  const full = (content: string) => {
    const result = fresh();
    result.html = md.render(content, { ctx, result }).replace(/\n+$/, "");
    return result;
  };
  const facts = (r: RenderResult) => [r.html, [...r.mentionedUserIds], [...r.silentlyMentionedUserIds], [...r.mentionedGroupIds], r.wildcard];
  /** Whether renderMarkdown gave `content` to markdown-it. */
  function tookFullPath(content: string): boolean {
    const original = md.render;
    let calls = 0;
    md.render = (...a: Parameters<typeof md.render>) => (calls++, original.apply(md, a));
    try {
      renderMarkdown(content, ctx);
    } finally {
      md.render = original;
    }
    return calls > 0;
  }

  test("answers what markdown-it answers, HTML and mentions, for lines of mentions, emoji and plain text", () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(facts(renderMarkdown(text, ctx))).toEqual(facts(full(text)));
        if (!tookFullPath(text)) fast++;
      }),
      { numRuns: 3000 },
    );
    // the property must have met the fast path often, not only markdown-it against itself
    expect(fast).toBeGreaterThan(100);
  });
  test("takes a chat line with a mention and an emoji, and leaves unknown names and other markup to markdown-it", () => {
    const line = "Hello @**Iago**, how is it going? :smile:";
    expect(tookFullPath(line)).toBe(false);
    const r = renderMarkdown(line, ctx);
    expect(r.html).toBe(
      '<p>Hello <span class="user-mention" data-user-id="10">@Iago</span>, how is it going? <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
    expect([...r.mentionedUserIds]).toEqual([10]);
    for (const other of ["Hello @**Nobody** :smile:", "Hello @**Iago** :notanemoji:", "x@**Iago**", "Hello @**Iago**.", " @**Iago**", "@**Iago** *hi*"]) {
      expect(tookFullPath(other)).toBe(true);
    }
    // a line given up on after a mention keeps only what markdown-it records
    expect([...renderMarkdown("@**all** and x@**Iago**", ctx).mentionedUserIds]).toEqual([]);
    expect(renderMarkdown("@**all** and x@**Iago**", ctx).wildcard.stream).toBe(true);
    const withLinkifier = context({ linkifiers: [{ pattern: "Iago", url_template: "https://tracker.example/x" }] });
    expect(renderMarkdown("Hi :smile: Iago", withLinkifier).html).toContain('href="https://tracker.example/x"');
  });
});
