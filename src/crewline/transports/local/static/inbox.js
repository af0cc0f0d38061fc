"use strict";
// The crewline inbox page. Plain script, no build step: the server sends the view as JSON
// (/inbox/state, /inbox/threads/<member>), a WebSocket says when it changed, and every
// action is a JSON POST carrying the session's CSRF token. Message HTML comes from the
// server already escaped; everything else is put in the page as text.

(() => {
  const $ = (id) => document.getElementById(id);
  const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  const day = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
  const moment = new Intl.DateTimeFormat(undefined, {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
  const COLLAPSED_PX = 240; // a message a quarter taller than this folds to it ("Show more")

  const state = {
    csrf: null,
    current: null, // the member whose thread is open
    threadVersion: -1,
    user: "owner", // the inbox's one human: local:<user>
    members: [],
    bells: [],
    editing: null, // the ref of the message being edited
    notes: new Map(), // member (or "") -> private notes shown to this reader only
    expanded: new Set(), // refs of long messages the reader unfolded
    busy: false,
  };

  // --- talking to the server ----------------------------------------------------------------
  function eventId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function sessionLost() {
    // A restart ends every session: reload (a new session, or the login form), at most
    // once every few seconds so a broken server cannot make the page spin.
    const last = Number(sessionStorage.getItem("crewline-reload") || 0);
    if (Date.now() - last > 5000) {
      sessionStorage.setItem("crewline-reload", String(Date.now()));
      location.reload();
    } else {
      setStatus("session lost: reload the page", "down");
    }
  }

  async function getJSON(path) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 401) {
      sessionLost();
      throw new Error("login required");
    }
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Crewline-CSRF": state.csrf || "" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 401 || (answer.error && answer.error.code === "bad_csrf")) {
      sessionLost();
    }
    if (answer.error) return { accepted: false, code: answer.error.code, notice: answer.error.message };
    // A repeat answers an action the inbox already took (the same event_id sent again):
    // its notice was shown for the first, and a second one would read as a second answer.
    if (answer.repeat) return { ...answer, notice: null };
    return answer;
  }

  // --- keeping the page current -------------------------------------------------------------
  let loading = null;
  let again = false;

  function refresh() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      try {
        do {
          again = false;
          await load();
        } while (again);
      } catch (error) {
        console.warn("crewline inbox:", error);
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  async function load() {
    const view = await getJSON("/inbox/state");
    state.csrf = view.csrf;
    state.user = view.user;
    state.members = view.members;
    state.bells = view.bells;
    renderRoster();
    renderBells();
    const member = state.members.find((m) => m.slug === state.current);
    if (state.current === null) {
      renderHome();
    } else if (!member || member.thread_version !== state.threadVersion) {
      const thread = await getJSON(`/inbox/threads/${encodeURIComponent(state.current)}`);
      if (thread.thread === state.current) {
        state.threadVersion = thread.version;
        renderThread(thread, member);
      }
    } else {
      renderThreadHead(member, threadName(member));
    }
  }

  function threadName(member) {
    return member ? member.name : state.current;
  }

  let socket = null;
  let backoff = 250;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/inbox/live`);
    socket.addEventListener("open", () => {
      backoff = 250;
      setStatus("live", "up");
    });
    socket.addEventListener("message", () => refresh());
    socket.addEventListener("close", (event) => {
      if (event.code === 4401) {
        sessionLost();
        return;
      }
      setStatus("reconnecting…", "down");
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    });
  }

  function setStatus(text, kind) {
    const status = $("status");
    status.textContent = text;
    status.dataset.state = kind;
  }

  // --- drawing --------------------------------------------------------------------------------
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "href"
               || key === "type" || key === "title" || key === "datetime" || key === "role") {
        node.setAttribute(key, value === true ? "" : value);
      } else node[key] = value;
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function when(iso) {
    const moment = new Date(iso);
    const today = new Date().toDateString() === moment.toDateString();
    return today ? clock.format(moment) : `${day.format(moment)}, ${clock.format(moment)}`;
  }

  function openLabel(member) {
    if (!member.needs_you) return "";
    const open = member.open;
    return open > 0 ? `needs you · ${open} open` : "needs you";
  }

  function renderRoster() {
    const list = $("roster");
    list.replaceChildren(...state.members.map((member) => {
      const badge = openLabel(member);
      return el("li", {},
        el("a", {
          href: `#/m/${member.slug}`,
          class: `member${member.needs_you ? " needs-you" : ""}`,
          "data-slug": member.slug,
          "aria-current": member.slug === state.current ? "page" : null,
        },
        el("span", { class: "name", text: member.name }),
        badge ? el("span", { class: "badge", "data-testid": "needs-you", text: badge }) : null,
        member.concierge
          ? el("span", { class: "concierge-status", "data-testid": "concierge-status",
            text: member.concierge, title: member.concierge_at })
          : null));
    }));
    $("roster-empty").hidden = state.members.length > 0;
    $("roster-add").textContent =
      `crewline member add radar --name Radar --owner local:${state.user} --transport local`;
  }

  function renderBells() {
    const open = state.bells.filter((b) => b.count > 0);
    const total = open.reduce((sum, b) => sum + b.count, 0);
    const count = $("bell-count");
    count.hidden = total === 0;
    count.textContent = String(total);
    $("bell").classList.toggle("ringing", total > 0);
    $("bells").replaceChildren(...state.bells.map((bell) => el("li", {},
      el("button", {
        type: "button",
        class: `bell-item${bell.count > 0 ? "" : " settled"}`,
        "data-member": bell.member,
        "data-group": bell.group_key,
        onclick: () => {
          closeDrawer();
          location.hash = `#/m/${bell.member}`;
        },
      },
      el("span", { class: "bell-title", text: bell.title }),
      bell.count > 0 ? el("span", { class: "count", text: String(bell.count) }) : null,
      el("span", { class: "bell-body", text: bell.body }),
      el("time", { datetime: bell.at, text: when(bell.at) })))));
    $("bells-empty").hidden = state.bells.length > 0;
  }

  function renderThreadHead(member, name) {
    $("thread-title").textContent = name;
    $("thread-sub").textContent = member && member.needs_you ? openLabel(member) : "all clear";
    renderThreadConcierge(member);
    $("composer-text").placeholder = `Reply to ${name}, or type /help`;
  }

  // The concierge's answer of the last minute, under the thread's status (as on the roster).
  function renderThreadConcierge(member) {
    const line = $("thread-concierge");
    const said = member ? member.concierge : null;
    line.hidden = !said;
    line.textContent = said || "";
    if (said) line.title = member.concierge_at; else line.removeAttribute("title");
  }

  function renderHome() {
    $("thread-title").textContent = "Inbox";
    $("thread-sub").textContent = "Pick a member to open its thread.";
    renderThreadConcierge(null);
    $("composer-text").placeholder = "Type /roster or /help";
    $("messages").replaceChildren(el("li", { class: "home" },
      el("p", { text: "Each member of your crew has a thread here. Cards ask you to decide; "
        + "tap a button or type your answer in the thread." }),
      el("p", { text: "Commands typed below: /roster (who needs you), /help." })));
    renderNotes();
  }

  function renderThread(thread, member) {
    const list = $("messages");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    renderThreadHead(member, thread.name);
    list.replaceChildren(...thread.messages.map(renderMessage));
    if (thread.messages.length === 0) {
      list.append(el("li", { class: "home", text: "Nothing here yet." }));
    }
    renderNotes();
    tick();
    fold(list);
    if (atBottom || !list.dataset.drawn || list.dataset.drawn !== thread.thread) {
      list.scrollTop = list.scrollHeight;
    }
    list.dataset.drawn = thread.thread;
  }

  function renderMessage(message) {
    const kinds = ["msg", `kind-${message.kind}`];
    if (message.mine) kinds.push("mine");
    if (message.settled) kinds.push("settled");
    if (message.rewound) kinds.push("rewound");
    if (message.buttons.length) kinds.push("open");
    const author = message.mine ? "You" : message.author;
    const body = el("div", { class: "body" });
    body.innerHTML = message.html; // escaped by the server (render.markdown_html)
    const item = el("li", { class: kinds.join(" "), "data-ref": message.ref, "data-kind": message.kind },
      el("div", { class: "meta" },
        el("span", { class: "author", text: author }),
        el("time", { datetime: message.at, text: when(message.at) }),
        message.edited ? el("span", { class: "edited", text: "edited" }) : null,
        message.rewound ? el("span", { class: "tag", text: "rewound" }) : null,
        message.mine && !message.rewound ? el("button", {
          type: "button", class: "link edit", text: "Edit",
          "aria-label": "Edit this message", onclick: () => startEdit(message),
        }) : null,
        // Not on cards: their buttons are the answers, and only the answers.
        !message.rewound && message.kind === "row" ? el("button", {
          type: "button", class: "link rewind", text: "Rewind to here",
          "aria-label": "Rewind the conversation to this message",
          onclick: () => rewindTo(message),
        }) : null,
        !message.rewound && message.kind === "row" ? el("button", {
          type: "button", class: "link fork", text: "Fork from here",
          "aria-label": "Fork a new member from this message",
          onclick: () => forkFrom(message),
        }) : null),
      body);
    const answers = message.buttons.filter((button) => button.role !== "control");
    const controls = message.buttons.filter((button) => button.role === "control");
    const drawn = (button, kind) => el("button", {
      type: "button",
      // Only the answer the concierge's suggestion names looks recommended.
      class: button.recommended ? `${kind} recommended` : kind,
      "data-payload": button.payload,
      text: button.label,
      onclick: (event) => press(event.currentTarget, button.payload),
    });
    if (answers.length) {
      // A card's buttons are its answers; a member's message has only Regenerate.
      const group = message.kind === "row" ? "Actions" : "Answer";
      item.append(el("div", { class: "choices", role: "group", "aria-label": group },
        ...answers.map((button) => drawn(button, "choice"))));
    }
    if (controls.length) {
      // The concierge's Send / Edit / Dismiss, apart from the answers and quieter.
      item.append(el("div", { class: "choices controls", role: "group", "aria-label": "Concierge" },
        ...controls.map((button) => drawn(button, "control"))));
    }
    if (message.notice) {
      item.append(el("p", { class: "notice", text: message.notice }));
    }
    return item;
  }

  function renderNotes() {
    const notes = state.notes.get(state.current || "") || [];
    $("private").replaceChildren(...notes.map((note) => el("li", { class: `private-note ${note.kind}` },
      el("span", { class: "only-you", text: "Only you see this" }),
      el("button", {
        type: "button", class: "link dismiss", text: "Dismiss", "aria-label": "Dismiss",
        onclick: () => {
          const kept = (state.notes.get(state.current || "") || []).filter((n) => n !== note);
          state.notes.set(state.current || "", kept);
          renderNotes();
        },
      }),
      note.command ? el("code", { text: note.command }) : null,
      el("p", { class: "note-text", text: note.text }))));
  }

  function addNote(text, { command = null, kind = "info" } = {}) {
    const key = state.current || "";
    const notes = state.notes.get(key) || [];
    notes.push({ text, command, kind });
    state.notes.set(key, notes.slice(-3));
    renderNotes();
  }

  // Times in a message are sent as UTC words inside <time class="moment">: shown here in the
  // reader's own zone (the UTC words stay as the tooltip); the open deadline counts down
  // beside its time, so the card names its deadline once.
  function tick() {
    for (const node of document.querySelectorAll("time.moment")) {
      const at = new Date(node.getAttribute("datetime"));
      if (!node.dataset.utc) {
        node.dataset.utc = node.textContent;
        node.title = node.textContent;
        node.textContent = moment.format(at);
      }
      if (node.dataset.deadline === undefined) continue;
      let left = node.nextElementSibling;
      if (!left || !left.classList.contains("countdown")) {
        left = el("span", { class: "countdown" });
        node.after(left);
      }
      const seconds = Math.round((at.getTime() - Date.now()) / 1000);
      left.textContent = seconds > 0 ? `(${span(seconds)} left)` : "(closing…)";
      left.classList.toggle("closing", seconds <= 0);
    }
  }

  function span(left) {
    const minutes = Math.floor(left / 60);
    const seconds = left % 60;
    if (minutes >= 60) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
    return minutes > 0 ? `${minutes}m ${String(seconds).padStart(2, "0")}s` : `${seconds}s`;
  }

  // A long message is folded to its first lines with "Show more"; cards and questions are
  // never folded, so a decision's deadline and how to answer it stay in view.
  function fold(list) {
    for (const item of list.querySelectorAll("li.msg")) {
      const kind = item.dataset.kind;
      if (kind === "card" || kind === "question") continue;
      const body = item.querySelector(".body");
      if (!body || body.scrollHeight <= COLLAPSED_PX * 1.25) continue;
      const ref = item.dataset.ref;
      const open = state.expanded.has(ref);
      body.classList.toggle("folded", !open);
      item.append(el("button", {
        type: "button",
        class: "link more",
        "aria-expanded": open ? "true" : "false",
        text: open ? "Show less" : "Show more",
        onclick: (event) => {
          const unfold = !state.expanded.has(ref);
          if (unfold) state.expanded.add(ref); else state.expanded.delete(ref);
          body.classList.toggle("folded", !unfold);
          event.currentTarget.textContent = unfold ? "Show less" : "Show more";
          event.currentTarget.setAttribute("aria-expanded", unfold ? "true" : "false");
        },
      }));
    }
  }

  // --- acting -------------------------------------------------------------------------------
  async function press(button, payload) {
    const group = button.closest(".choices");
    for (const other of group.querySelectorAll("button")) other.disabled = true;
    const receipt = await post("/inbox/click", { thread: state.current, payload, event_id: eventId() });
    if (!receipt.accepted) {
      for (const other of group.querySelectorAll("button")) other.disabled = false;
    }
    if (receipt.notice) addNote(receipt.notice, { kind: receipt.accepted ? "info" : "refused" });
    if (receipt.prefill) {
      // The concierge's Edit: its suggestion in the composer, to change and send.
      for (const other of group.querySelectorAll("button")) other.disabled = false;
      const box = $("composer-text");
      box.value = receipt.prefill;
      box.focus();
    }
  }

  // The concierge's keys, on an empty composer only: Ctrl+Y sends the suggestion of the
  // longest-waiting card that has one, Ctrl+E edits it, Esc dismisses it.
  function suggestionButton(label) {
    return [...document.querySelectorAll("#messages .choices button")]
      .find((button) => button.textContent === label && !button.disabled);
  }

  function conciergeKey(event) {
    if (event.target.value !== "" || state.editing) return false;
    const wanted = event.ctrlKey && event.key.toLowerCase() === "y" ? "Send suggestion"
      : event.ctrlKey && event.key.toLowerCase() === "e" ? "Edit"
      : event.key === "Escape" && !event.ctrlKey ? "Dismiss" : null;
    const button = wanted && suggestionButton(wanted);
    if (!button) return false;
    event.preventDefault();
    button.click();
    return true;
  }

  async function rewindTo(message) {
    const receipt = await post("/inbox/rewind", {
      thread: state.current, message: message.ref, event_id: eventId(),
    });
    if (receipt.notice) addNote(receipt.notice, { kind: receipt.accepted ? "info" : "refused" });
  }

  async function forkFrom(message) {
    const slug = window.prompt("The new member's slug (a-z, 0-9, dashes):");
    if (!slug) return;
    const receipt = await post("/inbox/fork", {
      thread: state.current, message: message.ref, slug: slug.trim(), event_id: eventId(),
    });
    if (receipt.notice) addNote(receipt.notice, { kind: receipt.accepted ? "info" : "refused" });
  }

  function startEdit(message) {
    state.editing = message.ref;
    $("editing").hidden = false;
    const box = $("composer-text");
    box.value = message.text;
    box.focus();
  }

  function stopEdit() {
    state.editing = null;
    $("editing").hidden = true;
  }

  async function submit(event) {
    event.preventDefault();
    const box = $("composer-text");
    const text = box.value;
    if (!text.trim() || state.busy) return;
    state.busy = true;
    $("send").disabled = true;
    try {
      if (state.editing) {
        const receipt = await post("/inbox/edit", {
          thread: state.current, message: state.editing, text, event_id: eventId(),
        });
        if (receipt.accepted || receipt.code === "not_modified") {
          stopEdit();
          box.value = "";
        }
        if (receipt.notice) addNote(receipt.notice, { kind: receipt.accepted ? "info" : "refused" });
        return;
      }
      const receipt = await post("/inbox/send", { thread: state.current, text, event_id: eventId() });
      const command = text.trim().startsWith("/") && !text.trim().startsWith("//");
      if (receipt.accepted || command || receipt.ref) box.value = "";
      if (receipt.notice && (command || !receipt.ref)) {
        addNote(receipt.notice, { command: command ? text.trim() : null,
                                  kind: receipt.accepted ? "info" : "refused" });
      }
    } finally {
      state.busy = false;
      $("send").disabled = false;
      refresh();
    }
  }

  function openDrawer() {
    $("drawer").hidden = false;
    $("bell").setAttribute("aria-expanded", "true");
  }

  function closeDrawer() {
    $("drawer").hidden = true;
    $("bell").setAttribute("aria-expanded", "false");
  }

  function route() {
    const match = location.hash.match(/^#\/m\/([a-z0-9][a-z0-9-]*)$/);
    const next = match ? match[1] : null;
    if (next !== state.current) {
      state.current = next;
      state.threadVersion = -1;
      stopEdit();
      $("messages").dataset.drawn = "";
    }
    refresh();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("composer").addEventListener("submit", submit);
    $("composer-text").addEventListener("keydown", (event) => {
      if (conciergeKey(event)) return;
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        $("composer").requestSubmit();
      } else if (event.key === "Escape" && state.editing) {
        stopEdit();
        event.target.value = "";
      }
    });
    $("cancel-edit").addEventListener("click", () => {
      stopEdit();
      $("composer-text").value = "";
    });
    $("bell").addEventListener("click", () => ($("drawer").hidden ? openDrawer() : closeDrawer()));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !$("drawer").hidden) closeDrawer();
    });
    window.addEventListener("hashchange", route);
    setInterval(tick, 1000);
    route();
    connect();
  });
})();
