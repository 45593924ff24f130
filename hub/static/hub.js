// The hub's pages: one script, the page picks its part from <body data-page>. Updates arrive as server-sent
// events (no polling). The table page reads its feed URL from ?feed= (default /events/table/<id>), so the table
// unit can serve the same page from its own small state feed without a broker.
"use strict";

const TEXTS = {
  cs: { title: "Partiar – turnaj", tables: "Stoly", standings: "Pořadí", referee: "Rozhodčí", table: "Stůl",
        online: "online", offline: "offline", unknown: "?", round: "Kolo", idle: "čeká", running: "hraje se",
        warning: "10 minut do konce", playout: "dohrávka A-B-C", pass: "pas", exchange: "výměna", timeout: "čas",
        penalty: "trest", withdrawn: "námitka", game: "partie", move: "tah", player: "Hráč", games: "Partie",
        wins: "Výhry", spread: "Skóre", scored: "Body", ended: "konec", lang: "English", history: "Tahy",
        login: "Přihlásit", logout: "Odhlásit", password: "Heslo", start_round: "Začít kolo",
        end_base_time: "Konec základní doby", warn: "Varování 10 minut", exports: "Exporty", sent: "Odesláno" },
  en: { title: "Partiar – tournament", tables: "Tables", standings: "Standings", referee: "Referee", table: "Table",
        online: "online", offline: "offline", unknown: "?", round: "Round", idle: "waiting", running: "playing",
        warning: "10 minutes left", playout: "A-B-C playout", pass: "pass", exchange: "exchange", timeout: "time",
        penalty: "penalty", withdrawn: "challenged off", game: "game", move: "move", player: "Player",
        games: "Games", wins: "Wins", spread: "Spread", scored: "Points", ended: "ended", lang: "Česky",
        history: "Moves", login: "Log in", logout: "Log out", password: "Password", start_round: "Start round",
        end_base_time: "End of base time", warn: "10-minute warning", exports: "Exports", sent: "Sent" },
};
let lang = localStorage.getItem("partiar-lang") || "cs";
const t = (key) => (TEXTS[lang] || TEXTS.cs)[key] || key;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function applyTexts() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const button = document.getElementById("lang");
  if (button) button.textContent = t("lang");
}

function mmss(seconds) {
  if (typeof seconds !== "number" || !isFinite(seconds)) return "";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clock view is the daemon's (device.clock MoveClock.view): move_left for player_on_move, budgets per side
// (chess-clock modes), game_left. While the clock runs, the page counts down from the time the view arrived.
const clockViews = new Map();  // clock element -> [clock, player, arrived]

function clockSeconds(clock, player, arrived) {
  if (!clock) return null;
  const running = clock.state === "running" && !clock.paused;
  const gone = running ? (performance.now() - arrived) / 1000 : 0;
  if (Array.isArray(clock.budgets) && typeof clock.budgets[player] === "number")
    return clock.budgets[player] - (clock.player_on_move === player ? gone : 0);
  if (clock.player_on_move === player && typeof clock.move_left === "number") return clock.move_left - gone;
  return null;
}

function gameSeconds(clock, arrived) {
  if (!clock || typeof clock.game_left !== "number") return null;
  const running = clock.state === "running" && !clock.paused && clock.game_phase !== "not started";
  return clock.game_left - (running ? (performance.now() - arrived) / 1000 : 0);
}

function tickClocks() {
  for (const [node, [clock, player, arrived]] of clockViews) {
    if (!node.isConnected) { clockViews.delete(node); continue; }
    const seconds = player === null ? gameSeconds(clock, arrived) : clockSeconds(clock, player, arrived);
    const text = seconds === null ? "" : mmss(seconds);
    if (node.dataset.clock !== text) { node.dataset.clock = text; node.firstChild ? (node.firstChild.textContent = text) : node.append(text); }
  }
}
setInterval(tickClocks, 250);  // local display only: no request to the server

function showClock(node, clock, player) {
  const view = [clock, player, performance.now()];
  clockViews.set(node, view);
  const seconds = player === null ? gameSeconds(clock, view[2]) : clockSeconds(clock, player, view[2]);
  node.dataset.clock = seconds === null ? "" : mmss(seconds);
  node.textContent = node.dataset.clock;
}

function renderBoard(board, rows) {
  if (board.children.length !== 225) {
    board.replaceChildren();
    for (let r = 0; r < 15; r++) for (let c = 0; c < 15; c++)
      board.append(el("div", { className: "cell", "data-row": r, "data-col": c, "data-letter": "" }));
  }
  const cells = board.children;
  for (let r = 0; r < 15; r++) {
    const row = (rows && rows[r]) || "";
    for (let c = 0; c < 15; c++) {
      const ch = row[c] && row[c] !== "." ? row[c] : "";
      const cell = cells[r * 15 + c];
      if (cell.dataset.letter !== ch.toUpperCase()) {
        cell.dataset.letter = ch.toUpperCase();
        cell.dataset.blank = String(ch !== "" && ch !== ch.toUpperCase());
        cell.textContent = ch.toUpperCase();
      }
    }
  }
}

function moveText(move) {
  if (!move) return "";
  const kind = move.kind;
  let what = kind === "play" || kind === "withdrawn" ? `${move.position || ""} ${(move.words || [])[0] || ""}` : t(kind);
  if (kind === "withdrawn") what += ` (${t("withdrawn")})`;
  return `${what} ${kind === "play" ? move.score : ""}`.trim();
}

function playersOf(view) {
  const state = view.state || {};
  const game = state.game || {};
  return game.players && game.players.length ? game.players : state.players || [];
}

function renderPlayers(container, view) {
  const game = (view.state && view.state.game) || {};
  const names = playersOf(view);
  container.replaceChildren();
  names.forEach((name, i) => {
    const onMove = game.ended == null && game.player_on_move === i;
    const row = el("div", { className: "player", "data-on-move": String(onMove), "data-player": i });
    row.style.display = "contents";
    const clock = el("span", { className: "clock" });
    showClock(clock, view.state && view.state.clock, i);
    row.append(el("span", { className: "name", text: name }), clock,
               el("span", { className: "score", "data-player": i, text: String((game.scores || [])[i] ?? "") }));
    container.append(row);
  });
}

// The base game time left (a .clock span) and the phase when it is not the normal one (A, B, C playout, end).
function renderGameTime(node, view) {
  const state = view.state || {};
  const game = state.game || {};
  let clock = node.querySelector(".clock");
  if (!clock) { clock = el("span", { className: "clock" }); node.append(clock, el("span", { className: "phase" })); }
  showClock(clock, state.clock, null);
  const phase = game.ended ? t("ended") : game.phase && game.phase !== "normal" && game.phase !== "setup" ? game.phase : "";
  node.querySelector(".phase").textContent = phase ? ` · ${phase}` : "";
}

function statusBadge(badge, view) {
  badge.dataset.online = String(view.online);
  badge.textContent = view.online === true ? t("online") : view.online === false ? t("offline") : t("unknown");
}

function renderRound(round) {
  const node = document.getElementById("round");
  if (!node || !round) return;
  node.dataset.stage = round.stage;
  node.textContent = round.number ? `${t("round")} ${round.number}: ${t(round.stage)}` : t("idle");
}

function listen(url, handlers) {
  const source = new EventSource(url);
  for (const [name, fn] of Object.entries(handlers))
    source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  return source;
}

// ---- the page of all tables ------------------------------------------------------------------------------
function card(id) {
  let node = document.querySelector(`.table-card[data-table="${CSS.escape(id)}"]`);
  if (node) return node;
  node = el("article", { className: "table-card", "data-table": id });
  const head = el("h2", {}, el("a", { href: `/table/${encodeURIComponent(id)}`, text: `${t("table")} ${id}` }),
                  el("span", { className: "badge" }));
  node.append(head, el("div", { className: "players" }), el("div", { className: "game-time" }),
              el("div", { className: "last-move" }),
              el("div", { className: "board mini" }));
  const grid = document.getElementById("tables");
  const after = [...grid.children].find((c) => c.dataset.table.localeCompare(id, undefined, { numeric: true }) > 0);
  grid.insertBefore(node, after || null);
  return node;
}

function renderCard(view) {
  const node = card(view.table);
  statusBadge(node.querySelector(".badge"), view);
  renderPlayers(node.querySelector(".players"), view);
  const game = (view.state && view.state.game) || {};
  node.querySelector(".last-move").textContent = moveText(game.last_move);
  renderGameTime(node.querySelector(".game-time"), view);
  node.dataset.seq = String(view.seq);
  renderBoard(node.querySelector(".board"), game.board);
}

// ---- one table ---------------------------------------------------------------------------------------------
function renderTable(view) {
  const root = document.getElementById("table");
  root.dataset.seq = String(view.seq);
  document.getElementById("table-name").textContent = `${t("table")} ${view.table}`;
  statusBadge(document.getElementById("status"), view);
  renderPlayers(document.getElementById("players"), view);
  const game = (view.state && view.state.game) || {};
  renderBoard(document.getElementById("board"), game.board);
  const history = game.history || [];
  document.getElementById("last-move").textContent = moveText(history[history.length - 1]);
  renderGameTime(document.getElementById("game-time"), view);
  const body = document.getElementById("history");
  body.replaceChildren(...history.map((m) => el("tr", {},
    el("td", { text: String(m.number + 1) }), el("td", { text: (game.players || [])[m.player] || "" }),
    el("td", { text: moveText(m) }), el("td", { text: String(m.total) }))));
}

// ---- standings ---------------------------------------------------------------------------------------------
let standingsTimer = null;
async function loadStandings() {
  standingsTimer = null;
  const data = await (await fetch("/api/standings")).json();
  renderRound(data.round);
  const root = document.getElementById("standings");
  root.replaceChildren();
  for (const [n, lines] of Object.entries(data.rounds).reverse()) {
    const table = el("table", { className: "list", "data-round": n });
    table.append(el("caption", { text: `${t("standings")} – ${t("round")} ${n}` }),
      el("tr", {}, ...["", "player", "games", "wins", "spread", "scored"].map((k) => el("th", { text: k && t(k) }))));
    lines.forEach((s, i) => table.append(el("tr", { className: "standing" }, el("td", { text: String(i + 1) }),
      el("td", { text: s.player }), el("td", { text: String(s.games) }), el("td", { text: String(s.wins) }),
      el("td", { text: String(s.spread) }), el("td", { text: String(s.scored) }))));
    root.append(table);
  }
}
const scheduleStandings = () => { if (!standingsTimer) standingsTimer = setTimeout(loadStandings, 500); };

// ---- referee -----------------------------------------------------------------------------------------------
let csrf = null;
async function refreshSession() {
  const s = await (await fetch("/api/session")).json();
  csrf = s.csrf;
  document.getElementById("login").hidden = s.referee;
  document.getElementById("control").hidden = !s.referee;
}
async function post(url, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const answer = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
  const data = await answer.json();
  document.getElementById("message").textContent = answer.ok ? "" : data.error;
  return answer.ok ? data : null;
}
function initReferee() {
  document.getElementById("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = await post("/api/login", { password: document.getElementById("password").value });
    if (data) await refreshSession();
  });
  document.getElementById("logout").addEventListener("click", async () => { await post("/api/logout", {}); await refreshSession(); });
  for (const button of document.querySelectorAll("button[data-command]"))
    button.addEventListener("click", async () => {
      const round = parseInt(document.getElementById("round-number").value, 10);
      const data = await post("/api/round", { command: button.dataset.command, round });
      if (data) document.getElementById("message").textContent = `${t("sent")}: ${data.command} ${data.round}`;
    });
  const n = document.getElementById("round-number");
  for (const link of document.querySelectorAll("a[data-export]"))
    link.addEventListener("click", () => { link.href = link.dataset.export.replace("N", n.value); });
  refreshSession();
  listen("/events?rounds", { round: (r) => { renderRound(r); if (r.number && !n.dataset.touched) n.value = r.number; } });
  n.addEventListener("input", () => { n.dataset.touched = "1"; });
}

// ---- start -------------------------------------------------------------------------------------------------
function init() {
  applyTexts();
  const button = document.getElementById("lang");
  if (button) button.addEventListener("click", () => {
    lang = lang === "cs" ? "en" : "cs"; localStorage.setItem("partiar-lang", lang); location.reload();
  });
  const page = document.body.dataset.page;
  if (page === "overview") listen("/events", { table: renderCard, round: renderRound });
  if (page === "table") {
    const id = decodeURIComponent(location.pathname.split("/").pop());
    const feed = new URLSearchParams(location.search).get("feed") || `/events/table/${encodeURIComponent(id)}`;
    listen(feed, { table: renderTable, round: renderRound });
  }
  if (page === "standings") {
    loadStandings();
    listen("/events", { table: (v) => { if (v.state && v.state.game && v.state.game.ended) scheduleStandings(); }, round: scheduleStandings });
  }
  if (page === "referee") initReferee();
}
document.addEventListener("DOMContentLoaded", init);
