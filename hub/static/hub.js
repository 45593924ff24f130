// The hub's pages: one script, the page picks its part from <body data-page>. Updates arrive as server-sent
// events (no polling). The table page reads its feed URL from ?feed= (default /events/table/<id>), so the table
// unit can serve the same page from its own small state feed without a broker.
"use strict";

const TEXTS = {
  cs: { title: "Partiar – turnaj", tables: "Stoly", standings: "Pořadí", referee: "Rozhodčí", table: "Stůl",
        online: "online", offline: "offline", unknown: "?", round: "Kolo", idle: "čeká", running: "hraje se", closed: "uzavřeno",
        warning: "10 minut do konce", playout: "dohrávka A-B-C", pass: "pas", exchange: "výměna", timeout: "čas",
        penalty: "trest", withdrawn: "námitka", blank_swap: "výměna žolíku", struck: "škrtnuto", game: "partie", move: "tah", player: "Hráč", games: "Partie",
        wins: "Výhry", spread: "Skóre", scored: "Body", ended: "konec", lang: "English", history: "Tahy",
        login: "Přihlásit", logout: "Odhlásit", password: "Heslo", start_round: "Začít kolo",
        device_code: "Kód nového zařízení",
        end_base_time: "Konec základní doby", warn: "Varování 10 minut", exports: "Exporty", sent: "Odesláno",
        user: "Jméno", final: "Konečný výsledek", rack: "zbylé kameny", winner: "vítěz", draw: "remíza",
        phase_A: "dohrávka A", phase_B: "dohrávka B", phase_C: "dohrávka C", racks_needed: "čeká na zbylé kameny",
        disagreement: "Skóre stolu nesouhlasí s jeho tahy", bad_event: "Chybná událost", id: "Číslo",
        status: "Stav", broker: "Broker", received: "Přijaté zprávy", duplicates: "Opakované", rejected: "Odmítnuté",
        none: "žádné", disagreements: "Nesouhlasící stoly", logins: "Nepovedená přihlášení", address: "adresa",
        aside: "Odložené hry (mimo výsledky)", release: "Přijmout jako hru stolu", clear_aside: "Smazat odložené hry stolu",
        events_n: "událostí", aside_no_start: "párování určuje hráče stolu: čeká se na začátek hry",
        aside_not_paired: "hráči nejsou ti z párování", aside_ahead: "kolo ještě nezačalo",
        aside_round_full: "stůl už má v tomto kole 6 her", aside_table_full: "stůl už má 500 her",
        connections: "Spojení (odmítnutá)", share: "Zprávy stolů nad jejich podíl (zahozené)", aside_login: "Přijmout nebo smazat může přihlášený rozhodčí.",
        account: "účet", failures: "neúspěchů", login_wait: "čeká", login_refused: "odmítnuto bez kontroly hesla", adj_correction: "oprava rozhodčího",
        adj_challenge_penalty: "neoprávněná námitka", adj_challenge_bonus: "bonus za námitku", inc_warning: "napomenutí",
        inc_rack_reported: "počet kamenů opraven", inc_rack_upheld: "námitka počtu kamenů oprávněná",
        inc_sheet_upheld: "námitka nezapisování oprávněná", errors: "Chyby partií", audit: "Záznam rozhodčích", when: "Kdy",
        what: "Co", who: "Kdo", topic: "Téma", reason: "Důvod", database: "Databáze", streams: "Otevřené stránky",
        export_zip: "kolo N: GCG a partiáře (.zip)", export_csv: "kolo N: výsledky (.csv)",
        export_all: "všechny výsledky (.csv)", err_login: "Špatné jméno nebo heslo.",
        err_rate: "Příliš mnoho pokusů o přihlášení, zkuste to za {s} s.", err_session: "Přihlaste se znovu.",
        err_busy: "Hub právě ověřuje mnoho hesel, zkuste to za {s} s.",
        err_csrf: "Přihlaste se znovu.", err_off: "Řízení kol je vypnuté: hub nemá žádného rozhodčího.",
        err_bad_request: "Neplatný požadavek (číslo kola 1–99).", err_other: "Chyba: ",
        no_game: "čeká na partii", end_played_out: "dohráno", end_scoreless: "tahy bez položení kamenů",
        end_playout: "konec dohrávky", end_resigned: "vzdáno", end_disqualified: "vyloučení",
        end_forfeit: "kontumace", end_dispute_forfeit: "kontumace ve sporu", audit_login: "přihlášení", audit_login_failed: "chybné přihlášení",
        audit_logout: "odhlášení", audit_round: "příkaz kola", audit_export: "export", audit_players: "hráči",
        audit_referee_set: "účet rozhodčího", audit_referee_removed: "účet zrušen", audit_desk: "řízení turnaje", audit_device_code: "kód nového zařízení",
        no_round: "partie před prvním kolem", players_title: "Hráči",
        players_help: "Jeden hráč na řádek: číslo, jméno (např. členské číslo ČAS).", save_players: "Uložit hráče",
        players_saved: "Uloženo hráčů: {n}", players_bad: "Řádek {n}: chybí číslo nebo jméno.",
        sanctions: "Tresty v turnaji", warnings: "Napomenutí", excluded: "vyloučen", exclusion: "Vyloučení",
        points: "Body", turcas: "TurČAS", buchholz: "Buchholz", starts: "Odp.−Zač.", own_score: "Skóre", difference: "Rozdíl", player_withdrawn: "odstoupil",
        turcas_formula: "TurČAS = A / Kol × Buchholz + B × skóre + C × rozdíl + D × (odpovědi − starty); A = {A}, B = {B}, C = {C}, D = {D}; program {software}",
        rounds_counted: "započtená kola:", kol: "Kol (počet kol turnaje):",
        due: "vyloučení? rozhoduje hlavní rozhodčí", played_after: "hraje po vyloučení", round_short: "k.", table_short: "stůl" },
  en: { title: "Partiar – tournament", tables: "Tables", standings: "Standings", referee: "Referee", table: "Table",
        online: "online", offline: "offline", unknown: "?", round: "Round", idle: "waiting", running: "playing", closed: "closed",
        warning: "10 minutes left", playout: "A-B-C playout", pass: "pass", exchange: "exchange", timeout: "time",
        penalty: "penalty", withdrawn: "challenged off", blank_swap: "blank swapped", struck: "struck", game: "game", move: "move", player: "Player",
        games: "Games", wins: "Wins", spread: "Spread", scored: "Points", ended: "ended", lang: "Česky",
        history: "Moves", login: "Log in", logout: "Log out", password: "Password", start_round: "Start round",
        device_code: "New device's code",
        end_base_time: "End of base time", warn: "10-minute warning", exports: "Exports", sent: "Sent",
        user: "Name", final: "Final result", rack: "racks", winner: "winner", draw: "draw",
        phase_A: "playout A", phase_B: "playout B", phase_C: "playout C", racks_needed: "waiting for the racks",
        disagreement: "The table's scores disagree with its moves", bad_event: "Refused event", id: "Id",
        status: "Status", broker: "Broker", received: "Messages received", duplicates: "Duplicates", rejected: "Refused",
        none: "none", disagreements: "Disagreeing tables", logins: "Failed logins", address: "address",
        aside: "Games put aside (not in the results)", release: "Take in as the table's game", clear_aside: "Clear the table's games aside",
        events_n: "events", aside_no_start: "the pairing names the table's players: waiting for the game's start",
        aside_not_paired: "the players are not the pairing's", aside_ahead: "the round has not started",
        aside_round_full: "the table has 6 games of this round already", aside_table_full: "the table has 500 games",
        connections: "Connections (refused)", share: "Table messages over their share (dropped)", aside_login: "A referee who is logged in can take them in or clear them.",
        account: "account", failures: "failures", login_wait: "waits", login_refused: "refused without a password check", adj_correction: "referee's correction",
        adj_challenge_penalty: "rejected challenge", adj_challenge_bonus: "challenge bonus", inc_warning: "warning",
        inc_rack_reported: "rack count put right", inc_rack_upheld: "rack count challenge upheld",
        inc_sheet_upheld: "sheet challenge upheld", errors: "Game errors", audit: "Referee log", when: "When",
        what: "What", who: "Who", topic: "Topic", reason: "Reason", database: "Database", streams: "Open pages",
        export_zip: "round N: GCG and score sheets (.zip)", export_csv: "round N: results (.csv)",
        export_all: "all results (.csv)", err_login: "Wrong name or password.",
        err_rate: "Too many login attempts, try again in {s} s.", err_session: "Please log in again.",
        err_busy: "The hub is checking many passwords right now, try again in {s} s.",
        err_csrf: "Please log in again.", err_off: "Round control is off: the hub has no referee.",
        err_bad_request: "Invalid request (round 1-99).", err_other: "Error: ",
        no_game: "waiting for a game", end_played_out: "played out", end_scoreless: "scoreless turns",
        end_playout: "end of playout", end_resigned: "resigned", end_disqualified: "disqualified",
        end_forfeit: "forfeit", end_dispute_forfeit: "forfeit in a dispute", audit_login: "login", audit_login_failed: "failed login", audit_logout: "logout",
        audit_round: "round command", audit_export: "export", audit_players: "players",
        audit_referee_set: "referee account", audit_referee_removed: "account removed", audit_desk: "tournament desk", audit_device_code: "a new device's code",
        no_round: "games before the first round", players_title: "Players",
        players_help: "One player a line: id, name (e.g. the ČAS member number).", save_players: "Save players",
        players_saved: "Players saved: {n}", players_bad: "Line {n}: an id or a name is missing.",
        sanctions: "Sanctions in the tournament", warnings: "Warnings", excluded: "excluded", exclusion: "Exclusion",
        points: "Points", turcas: "TurČAS", buchholz: "Buchholz", starts: "Repl.−Starts", own_score: "Score", difference: "Difference", player_withdrawn: "withdrawn",
        turcas_formula: "TurČAS = A / Kol × Buchholz + B × score + C × difference + D × (replies − starts); A = {A}, B = {B}, C = {C}, D = {D}; software {software}",
        rounds_counted: "rounds counted:", kol: "Kol (rounds of the event):",
        due: "exclusion? the chief referee decides", played_after: "plays after the exclusion", round_short: "r.", table_short: "table" },
};
let lang = localStorage.getItem("partiar-lang") || "cs";
const t = (key) => (TEXTS[lang] || TEXTS.cs)[key] || key;

/** A name or id a person typed, isolated (``<bdi>``): a right-to-left name or a bidi control in it cannot
 * reorder the text around it (as the desk's pages do, ``hub.director_render.isolated``). */
const bdi = (text) => el("bdi", { text: String(text) });
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

// The premium squares as on a real board (engine.board's layout, in <body data-premiums>: 15 rows of "." none,
// "d"/"t" double/triple letter, "D"/"T" double/triple word): a cell's class p-d, p-t, p-D or p-T colours it, and
// an empty premium square says what it is (Czech 3×S/2×P slovo/písmeno, English 3×W/2×L), as the sim's page does.
const PREMIUM_ROWS = (document.body.dataset.premiums || "").split("/");
function premiumLabel(code) {
  const [word, letter] = lang === "cs" ? ["S", "P"] : ["W", "L"];
  return { T: `3×${word}`, D: `2×${word}`, t: `3×${letter}`, d: `2×${letter}` }[code] || "";
}

function renderBoard(board, rows) {
  if (board.children.length !== 225) {
    board.replaceChildren();
    for (let r = 0; r < 15; r++) for (let c = 0; c < 15; c++) {
      const code = (PREMIUM_ROWS[r] || "")[c] || ".";
      board.append(el("div", { className: code === "." ? "cell" : `cell p-${code}`, "data-row": r, "data-col": c,
                               "data-letter": "", "data-label": premiumLabel(code) }));
    }
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

// The hub keeps positions in ČAS notation (row letter, column number, V across / S down: "H4V"); the English page
// shows the classic one the table's LCD and score sheet use in English (engine.board.Notation.for_language):
// across row number first ("8D"), down column letter first ("D8").
function positionText(position) {
  const m = /^([A-O])(\d{1,2})([VS])$/.exec(position || "");
  if (lang === "cs" || !m) return position || "";
  const row = m[1].charCodeAt(0) - 64, column = String.fromCharCode(64 + Number(m[2]));
  return m[3] === "V" ? `${row}${column}` : `${column}${row}`;
}

function moveText(move) {
  if (!move) return "";
  const kind = move.kind;
  let what = kind === "play" || kind === "withdrawn" ? `${positionText(move.position)} ${(move.words || [])[0] || ""}` : t(kind);
  if (kind === "withdrawn") what += ` (${t("withdrawn")})`;
  return `${what} ${kind === "play" ? move.score : ""}`.trim();
}

function gameOf(view) { return view.game || {}; }

function playersOf(view) {
  const game = gameOf(view);
  return game.players && game.players.length ? game.players : (view.state && view.state.players) || [];
}

// The scores to show: the final result (with the end-of-game rack adjustments) once the game has one.
function shownScores(game) {
  return game.result ? game.result.final : game.scores || [];
}

// Doubles (seed 003): a row per team with its total; the player on move named in the team's row.
function renderTeams(container, view, teams) {
  const game = gameOf(view);
  const final = teams.result ? teams.result.final : teams.totals || [];
  const clockView = view.state && view.state.clock;
  container.replaceChildren();
  teams.names.forEach((name, i) => {
    const onMove = game.ended == null && teams.on_move === i;
    const row = el("div", { className: "player", "data-on-move": String(onMove), "data-team": i });
    row.style.display = "contents";
    const clock = el("span", { className: "clock" });
    const side = clockView && clockView.player_on_move;
    const ours = teams.kind === "polish" ? i : (side != null && side % 2 === i ? side : -1);
    showClock(clock, clockView, ours);
    const who = onMove ? [" ▸ ", bdi((game.players || [])[game.player_on_move] || "")] : [];
    row.append(el("span", { className: "name" }, bdi(name), ...who), clock,
               el("span", { className: "score", "data-team": i, text: String(final[i] ?? "") }));
    container.append(row);
  });
}

function renderPlayers(container, view) {
  const game = gameOf(view);
  if (game.teams && Array.isArray(game.teams.names)) return renderTeams(container, view, game.teams);
  const names = playersOf(view);
  const scores = shownScores(game);
  const winners = game.result ? game.result.winners : [];
  container.replaceChildren();
  names.forEach((name, i) => {
    const onMove = game.ended == null && game.player_on_move === i;
    const row = el("div", { className: "player", "data-on-move": String(onMove), "data-player": i,
                            "data-winner": String(winners.includes(i)) });
    row.style.display = "contents";
    const clock = el("span", { className: "clock" });
    showClock(clock, view.state && view.state.clock, i);
    row.append(el("span", { className: "name", text: name }), clock,
               el("span", { className: "score", "data-player": i, text: String(scores[i] ?? "") }));
    container.append(row);
  });
}

// "Final result 162:178 · racks −5/+5 · winner Eva" once the game has ended and its racks are known.
function renderFinal(node, view) {
  const game = gameOf(view);
  const result = game.result;
  node.hidden = !result && !(game.ended && (game.racks_needed || []).length);
  node.dataset.final = result ? result.final.join(":") : "";
  if (!result) { node.textContent = game.ended ? `${t(`end_${game.ended}`)} · ${t("racks_needed")}` : ""; return; }
  const teams = game.teams && game.teams.result;  // doubles: the teams' result
  const names = teams ? game.teams.names : playersOf(view);
  const final = teams ? teams.final : result.final;
  const played = teams ? game.teams.totals : result.played;
  const winners = teams ? teams.winners : result.winners;
  const adjust = final.map((f, i) => f - played[i]);
  const signed = adjust.map((a) => (a > 0 ? `+${a}` : a < 0 ? `−${-a}` : "0")).join(" / ");
  // the racks change the scores only after these ends (device/screens.py RACK_ENDS); a resignation or a forfeit
  // has a fixed result instead, whose difference from the points played is not the racks'
  const racks = ["played_out", "scoreless", "playout"].includes(result.reason) ? ` · ${t("rack")} ${signed}` : "";
  const who = winners.length > 1 ? [t("draw")] : [`${t("winner")} `, bdi(names[winners[0]] || "")];
  node.replaceChildren(`${t("final")} ${final.join(":")}${racks} · `, ...who, ` (${t(`end_${result.reason}`)})`);
}

function renderWarnings(node, view) {
  const lines = [];
  if (view.disagreement) lines.push(`${t("disagreement")}: ${view.disagreement}`);
  if (view.error) lines.push(`${t("bad_event")}: ${view.error}`);
  node.textContent = lines.join(" · ");
  node.hidden = lines.length === 0;
}

// The base game time left (a .clock span) and the phase when it is not the normal one (A, B, C playout, end).
function renderGameTime(node, view) {
  const game = gameOf(view);
  let clock = node.querySelector(".clock");
  if (!clock) { clock = el("span", { className: "clock" }); node.append(clock, el("span", { className: "phase" })); }
  showClock(clock, view.state && view.state.clock, null);
  const phase = game.ended ? t("ended") : ["A", "B", "C"].includes(game.phase) ? t(`phase_${game.phase}`) : "";
  node.querySelector(".phase").textContent = phase;  // style.css puts " · " between the time and the phase
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

// The browser retries a feed on its own after a dropped connection, but gives it up for good when the hub
// refuses it (a 503: too many live pages, a restart in progress): then the page opens a new one after a while.
// With a `snapshot` (the page's state as one answer) a refused feed degrades to slower updates: the page loads
// the snapshot at once and every SLOW_MS until the hub has a feed for it again (body[data-feed] says which).
const RETRY_MS = 2000;
const SLOW_MS = 15000;
function listen(url, handlers, snapshot) {
  const source = new EventSource(url);
  source.addEventListener("open", () => { document.body.dataset.feed = "live"; });
  for (const [name, fn] of Object.entries(handlers))
    source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  source.addEventListener("error", () => {
    if (source.readyState !== EventSource.CLOSED) return;
    if (snapshot) {
      document.body.dataset.feed = "polled";
      snapshot(handlers).catch(() => {});
    }
    setTimeout(() => listen(url, handlers, snapshot), snapshot ? SLOW_MS : RETRY_MS);
  });
}
/** A snapshot loader: `path`'s JSON handed to the feed's handlers as the feed would (`parts` splits it). */
function snapshotOf(path, parts) {
  return async (handlers) => {
    const answer = await fetch(path);
    if (!answer.ok) return;
    for (const [name, data] of parts(await answer.json())) if (handlers[name] && data) handlers[name](data);
  };
}

// A feed sends a table's whole view (`table`) when its game changed, else the view without its game (`state`:
// names, clock, status, claims): the page keeps each table's last view and lays the short message over it.
const views = new Map();
function tableViews(render) {
  return {
    table: (view) => { views.set(view.table, view); render(view); },
    state: (part) => {
      const view = { game: null, ...(views.get(part.table) || {}), ...part };
      views.set(part.table, view);
      render(view);
    },
  };
}

// ---- the page of all tables ------------------------------------------------------------------------------
/** The table's configured name (its state's ``name``, e.g. "Stůl 12"), else "Stůl <broker id>". */
function tableTitle(view) {
  const name = view && view.state && typeof view.state.name === "string" ? view.state.name.trim() : "";
  return name || `${t("table")} ${view.table}`;
}

function card(id) {
  let node = document.querySelector(`.table-card[data-table="${CSS.escape(id)}"]`);
  if (node) return node;
  node = el("article", { className: "table-card", "data-table": id });
  const head = el("h2", {}, el("a", { href: `/table/${encodeURIComponent(id)}`, text: `${t("table")} ${id}` }),
                  el("span", { className: "badge" }));
  node.append(head, el("div", { className: "players" }), el("div", { className: "game-time" }),
              el("div", { className: "final", hidden: true }), el("div", { className: "warning", hidden: true }),
              el("div", { className: "last-move" }),
              el("div", { className: "board mini" }));
  const grid = document.getElementById("tables");
  const after = [...grid.children].find((c) => c.dataset.table.localeCompare(id, undefined, { numeric: true }) > 0);
  grid.insertBefore(node, after || null);
  return node;
}

function renderCard(view) {
  const node = card(view.table);
  node.querySelector("h2 a").textContent = tableTitle(view);
  statusBadge(node.querySelector(".badge"), view);
  renderPlayers(node.querySelector(".players"), view);
  const game = gameOf(view);
  node.querySelector(".last-move").textContent = view.game ? moveText(game.last_move) : t("no_game");
  renderGameTime(node.querySelector(".game-time"), view);
  renderFinal(node.querySelector(".final"), view);
  renderWarnings(node.querySelector(".warning"), view);
  node.dataset.seq = String(view.seq);
  renderBoard(node.querySelector(".board"), game.board);
}

// ---- one table ---------------------------------------------------------------------------------------------
function renderTable(view) {
  const root = document.getElementById("table");
  root.dataset.seq = String(view.seq);
  document.getElementById("table-name").textContent = tableTitle(view);
  statusBadge(document.getElementById("status"), view);
  renderPlayers(document.getElementById("players"), view);
  const game = gameOf(view);
  renderBoard(document.getElementById("board"), game.board);
  renderFinal(document.getElementById("final"), view);
  renderWarnings(document.getElementById("warning"), view);
  const history = game.history || [];
  document.getElementById("last-move").textContent = moveText(history[history.length - 1]);
  renderChart(document.getElementById("chart"), view);
  renderGameTime(document.getElementById("game-time"), view);
  const names = playersOf(view);
  const rows = history.map((m) => [m.number + 1, el("tr", {},
    el("td", { text: String(m.number + 1) }), el("td", { text: names[m.player] || "" }),
    el("td", { text: moveText(m) }), el("td", { text: String(m.total) }))]);
  // the referee's record between the moves (the score sheet's "Záznam rozhodčího"): a correction or a challenge's
  // points explain a score that is not the last move's total; a warning, a no-show
  for (const [entry, what] of [...(game.adjustments || []).map((a) => [a, `adj_${a.kind}`]),
                                ...(game.incidents || []).map((i) => [i, `inc_${i.kind}`])]) {
    const points = typeof entry.points === "number" ? ` ${entry.points > 0 ? "+" : "−"}${Math.abs(entry.points)}` : "";
    const note = entry.note ? ` (${entry.note})` : "";
    rows.push([entry.after + 0.5, el("tr", { className: "referee-note" }, el("td"),
      el("td", { text: names[entry.player] || "" }), el("td", { text: `${t(what)}${points}${note}` }), el("td"))]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  document.getElementById("history").replaceChildren(...rows.map(([, row]) => row));
}

// The game's score over time: the hub draws it (engine.score_chart, the score sheet's own chart) as SVG; fetched
// again only when the game has a new event (``seq``), not at every tick of the clock.
async function renderChart(node, view) {
  const key = `${view.game_id}/${view.seq}/${lang}`;
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  if (!view.game) { node.replaceChildren(); return; }
  try {
    const answer = await fetch(`/api/table/${encodeURIComponent(view.table)}/chart.svg?lang=${lang}`);
    if (answer.ok && node.dataset.key === key) node.innerHTML = await answer.text();  // the hub's own SVG, names escaped
  } catch (error) {
    node.dataset.key = "";  // tried again with the next change
  }
}

// ---- standings ---------------------------------------------------------------------------------------------
let standingsTimer = null;
async function loadStandings() {
  standingsTimer = null;
  const data = await (await fetch("/api/standings")).json();
  renderRound(data.round);
  const root = document.getElementById("standings");
  root.replaceChildren();
  if (data.kind === "turcas") { renderTurcas(root, data); return; }
  for (const [n, lines] of Object.entries(data.rounds).reverse()) {
    const table = el("table", { className: "list", "data-round": n });
    table.append(el("caption", { text: `${t("standings")} – ${n === "0" ? t("no_round") : `${t("round")} ${n}`}` }),
      el("tr", {}, ...["", "id", "player", "games", "wins", "spread", "scored"].map((k) => el("th", { text: k && t(k) }))));
    lines.forEach((s, i) => table.append(el("tr", { className: "standing", "data-player": s.id }, el("td", { text: String(i + 1) }),
      el("td", {}, bdi(s.id)), el("td", {}, bdi(s.player), s.excluded ? ` (${t("excluded")})` : ""),
      el("td", { text: String(s.games) }),
      el("td", { text: String(s.wins).replace(".5", lang === "cs" ? ",5" : ".5") }),
      el("td", { text: String(s.spread) }), el("td", { text: String(s.scored) }))));
    root.append(table);
  }
}
// The tournament desk's standings (hub.director.standings_payload): points, then TurČAS, its coefficients under it.
const decimal = (x) => (lang === "cs" ? String(x).replace(".", ",") : String(x));
function renderTurcas(root, data) {
  const c = data.coefficients;
  const formula = t("turcas_formula").replace("{A}", decimal(c.A)).replace("{B}", decimal(c.B))
    .replace("{C}", decimal(c.C)).replace("{D}", decimal(c.D)).replace("{software}", `${c.software} ${c.version}`);
  for (const [n, lines] of Object.entries(data.rounds).reverse()) {
    const table = el("table", { className: "list", "data-round": n });
    table.append(el("caption", { text: `${t("standings")} – ${t("round")} ${n}` }),
      el("tr", {}, ...["", "id", "player", "points", "turcas", "buchholz", "own_score", "difference", "starts", "games"]
        .map((k) => el("th", { text: k && t(k) }))));
    lines.forEach((s) => table.append(el("tr", { className: "standing", "data-player": s.id },
      el("td", { text: s.rank_to > s.rank ? `${s.rank}.–${s.rank_to}.` : `${s.rank}.` }), el("td", {}, bdi(s.id)),
      el("td", {}, bdi(s.player), s.status === "active" ? "" : ` (${t(s.status === "withdrawn" ? "player_withdrawn" : "excluded")})`),
      el("td", { text: decimal(s.points) }), el("td", { text: decimal(s.turcas.toFixed(2)) }),
      el("td", { text: decimal(s.buchholz) }), el("td", { text: String(s.scored) }),
      el("td", { text: String(s.spread) }), el("td", { text: String(s.starts) }), el("td", { text: String(s.games) }))));
    const counted = data.counted && n in data.counted ? data.counted[n] : n;  // complete rounds, as the tie-break
    const kol = data.kol && n in data.kol ? data.kol[n] : counted;  // TurČAS's Kol: the event's planned rounds
    root.append(table, el("p", { className: "coefficients",
      text: `${formula}; ${t("kol")} ${kol}; ${t("rounds_counted")} ${counted}` }));
  }
}
const scheduleStandings = () => { if (!standingsTimer) standingsTimer = setTimeout(loadStandings, 500); };

// ---- referee -----------------------------------------------------------------------------------------------
let csrf = null;
function errorText(answer, data) {
  const key = `err_${data.code}`;
  const text = TEXTS[lang][key] ? t(key) : t("err_other") + (data.error || answer.status);
  return text.replace("{s}", answer.headers.get("Retry-After") || "60");
}
async function refreshSession() {
  const s = await (await fetch("/api/session")).json();
  csrf = s.csrf;
  document.getElementById("login").hidden = Boolean(s.referee);
  document.getElementById("control").hidden = !s.referee;
  document.getElementById("who").textContent = s.referee || "";
  if (s.referee) { loadAudit(); loadPlayers(); }
}
async function loadPlayers() {
  const players = await (await fetch("/api/players")).json();
  document.getElementById("players").value = players.map((p) => `${p.id}, ${p.name}`).join("\n");
}
async function savePlayers() {
  const rows = document.getElementById("players").value.split("\n").map((l) => l.trim()).filter(Boolean);
  const players = [];
  for (const [i, line] of rows.entries()) {
    const cut = line.search(/[,;\t]/);
    const id = cut < 0 ? "" : line.slice(0, cut).trim(), name = cut < 0 ? "" : line.slice(cut + 1).trim();
    if (!id || !name) { document.getElementById("message").textContent = t("players_bad").replace("{n}", i + 1); return; }
    players.push({ id, name });
  }
  const data = await post("/api/players", { players });
  if (data) { document.getElementById("message").textContent = t("players_saved").replace("{n}", players.length); loadAudit(); }
}
async function post(url, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const answer = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
  const data = await answer.json();
  const message = document.getElementById("message");
  message.textContent = answer.ok ? "" : errorText(answer, data);
  message.dataset.code = answer.ok ? "" : data.code || "";
  message.className = answer.ok ? "" : "error";
  return answer.ok ? data : null;
}
async function loadAudit() {
  const answer = await fetch("/api/audit");
  if (!answer.ok) return;
  const rows = await answer.json();
  const body = document.getElementById("audit");
  const detail = (r) => r.action === "round" ? `${t({ start_round: "start_round", warning: "warn",
    end_base_time: "end_base_time" }[r.detail.command] || r.detail.command)} – ${t("round")} ${r.detail.round}`
    : r.detail[lang] || Object.values(r.detail).join(", ");  // a desk action: its words in both languages
  body.replaceChildren(...rows.slice(0, 30).map((r) => el("tr", { "data-action": r.action },
    el("td", { text: new Date(r.at * 1000).toLocaleTimeString(lang) }), el("td", { text: r.referee || "" }),
    el("td", { text: t(`audit_${r.action.split(":")[0]}`) }), el("td", { text: detail(r) }), el("td", { text: r.client || "" }))));
}
function initReferee() {
  document.getElementById("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = await post("/api/login", { user: document.getElementById("user").value,
                                            password: document.getElementById("password").value,
                                            code: document.getElementById("device-code").value.trim() });
    if (data) await refreshSession();
  });
  document.getElementById("logout").addEventListener("click", async () => { await post("/api/logout", {}); await refreshSession(); });
  document.getElementById("save-players").addEventListener("click", savePlayers);
  for (const button of document.querySelectorAll("button[data-command]"))
    button.addEventListener("click", async () => {
      const round = parseInt(document.getElementById("round-number").value, 10);
      const data = await post("/api/round", { command: button.dataset.command, round });
      if (data) { document.getElementById("message").textContent = `${t("sent")}: ${t(button.dataset.i18n)} – ${t("round")} ${data.round}`; await loadAudit(); }
    });
  const n = document.getElementById("round-number");
  const exports = () => {
    for (const link of document.querySelectorAll("a[data-export]")) {
      link.href = link.dataset.export.replace("N", n.value);
      link.textContent = t(link.dataset.i18n).replace("N", n.value);
    }
  };
  refreshSession();
  listen("/events?rounds", { round: (r) => { renderRound(r); if (r.number && !n.dataset.touched) n.value = r.number; exports(); } });
  n.addEventListener("input", () => { n.dataset.touched = "1"; exports(); });
}

// ---- status ------------------------------------------------------------------------------------------------
async function loadStatus() {
  const s = await (await fetch("/api/status")).json();
  renderRound(s.round);
  const counts = document.getElementById("counts");
  const extra = {
    connections: s.connections ? `${s.connections.open} (${s.connections.refused})` : "",
    share: s.share ? Object.entries(s.share.dropped).map(([table, n]) => `${t("table_short")} ${table}: ${n}`).join(", ") || "0" : "",
  };
  counts.replaceChildren(...["received", "duplicates", "rejected", "streams", "connections", "share", "database"]
    .filter((k) => k in s && s[k] !== null)
    .map((k) => el("tr", { "data-key": k }, el("th", { text: t(k) }), el("td", { text: String(k in extra ? extra[k] : s[k]) }))));
  if (s.broker) {  // the hub's own broker link: a link that is down is the first thing the page says
    const row = el("tr", { "data-key": "broker" }, el("th", { text: t("broker") }), el("td", { text: s.broker.says[lang] || s.broker.says.cs }));
    if (!s.broker.connected) row.classList.add("flagged");
    counts.prepend(row);
  }
  const list = (id, entries) => document.getElementById(id).replaceChildren(...(entries.length ? entries : [[t("none")]])
    .map((cells) => el("tr", {}, ...cells.map((c) => el("td", { text: String(c ?? "") })))));
  list("rejected-list", s.rejected_recent.map((r) => [new Date(r.at * 1000).toLocaleTimeString(lang), r.table, r.topic, r.error]));
  list("disagreement-list", Object.entries(s.disagreements).concat(Object.entries(s.errors)));
  renderAside(s.aside || { tables: {} });
  const logins = s.logins || { addresses: [], accounts: [], refused: 0 };
  const attempt = (kind) => (r) => [`${t(kind)} ${r.who}`, `${t("failures")}: ${r.failures}`,
                                    r.wait > 0 ? `${t("login_wait")} ${Math.ceil(r.wait)} s` : ""];
  list("login-list", [...logins.accounts.map(attempt("account")), ...logins.addresses.map(attempt("address")),
                      ...(logins.refused ? [[t("login_refused"), String(logins.refused), ""]] : [])]);
  const at = (w) => `${t("round_short")} ${w.round}, ${t("table_short")} ${w.table}`;
  list("sanction-list", s.sanctions.map((p) => [
    p.id === p.player ? p.player : `${p.player} (${p.id})`,
    `${t("warnings")}: ${p.warnings.length}${p.warnings.length ? ` (${p.warnings.map(at).join("; ")})` : ""}`,
    p.excluded ? `${t("exclusion")}: ${at(p.excluded)}` : "",
    [p.due ? t("due") : "", ...p.played_after.map((w) => `${t("played_after")}: ${at(w)}`)].filter(Boolean).join("; "),
  ]));
  document.querySelectorAll("#sanction-list tr").forEach((row, i) => {
    const p = s.sanctions[i];
    if (p && (p.due || p.played_after.length)) row.classList.add("flagged");
  });
}

async function renderAside(aside) {
  const session = await (await fetch("/api/session")).json();
  csrf = session.csrf;
  const action = (body) => async () => { if (await post("/api/aside", body)) loadStatus(); };
  const button = (text, body) => {
    const node = el("button", { type: "button", text });
    node.addEventListener("click", action(body));
    return node;
  };
  const rows = [];
  for (const [table, entry] of Object.entries(aside.tables)) {
    const head = el("tr", { "data-table": table }, el("th", { text: `${t("table_short")} ${table}: ${entry.count}` }));
    if (session.referee) head.append(el("td", {}, button(t("clear_aside"), { action: "clear", table })));
    rows.push(head);
    for (const g of entry.games) {
      const row = el("tr", { "data-game": g.game },
        ...[g.game, `${t("round_short")} ${g.round}`, (g.players || []).join(", "), `${g.events} ${t("events_n")}`, g.reason]
          .map((text) => el("td", { text: String(text) })));
      if (TEXTS[lang][`aside_${g.code}`]) row.children[4].textContent = t(`aside_${g.code}`);
      if (session.referee) row.append(el("td", {}, button(t("release"), { action: "release", table, game: g.game })));
      rows.push(row);
    }
  }
  if (rows.length && !session.referee) rows.push(el("tr", {}, el("td", { text: t("aside_login") })));
  document.getElementById("aside-list").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { text: t("none") }))]));
}

// ---- start -------------------------------------------------------------------------------------------------
function init() {
  applyTexts();
  const button = document.getElementById("lang");
  if (button) button.addEventListener("click", () => {
    lang = lang === "cs" ? "en" : "cs"; localStorage.setItem("partiar-lang", lang); location.reload();
  });
  const page = document.body.dataset.page;
  if (page === "overview") listen("/events", { ...tableViews(renderCard), round: renderRound },
                                 snapshotOf("/api/overview", (d) => [["round", d.round], ...d.tables.map((v) => ["table", v])]));
  if (page === "table") {
    const id = decodeURIComponent(location.pathname.split("/").pop());
    const feed = new URLSearchParams(location.search).get("feed") || `/events/table/${encodeURIComponent(id)}`;
    listen(feed, { ...tableViews(renderTable), round: renderRound },
           snapshotOf(`/api/table/${encodeURIComponent(id)}`, (v) => [["table", v]]));
  }
  if (page === "standings") {
    loadStandings();
    listen("/events", { table: (v) => { if (v.game && v.game.result) scheduleStandings(); }, round: scheduleStandings },
           async () => scheduleStandings());
  }
  if (page === "referee") initReferee();
  if (page === "status") {
    loadStatus();
    let timer = null;
    const later = () => { if (!timer) timer = setTimeout(() => { timer = null; loadStatus(); }, 500); };
    listen("/events", { table: later, state: later, round: later, status: later });
  }
}
document.addEventListener("DOMContentLoaded", init);
