// The simulator page: renders the state pushed on /api/events and sends the person's clicks to the sim's API.
"use strict";

const TEXTS = {
  cs: {
    title: "Partiar – simulátor stolu", check_square: "Kontrolní čtverec", clear_board: "Vyklidit desku",
    unplug: "Odpojit desku", replug: "Připojit desku", fault_mode: "Režim poruch",
    hint: "Klikněte na pole a pak na písmeno (nebo je napište). Kliknutím na kámen ho zvednete.",
    hint_fault: "Režim poruch: kliknutím na pole přepnete poruchu (rozpojeno); na kameni vyvoláte blikání kontaktu.",
    button_a: "Tlačítko A", button_b: "Tlačítko B", encoder_push: "Stisk", buzzer: "Bzučák", sound: "zvuk",
    led: "LED", advance: "Posunout čas:", kill_daemon: "Vypnout proud (SIGKILL)", raw: "Stav (JSON)",
    daemon_up: "démon běží", daemon_down: "démon neběží", link_up: "deska připojena", link_down: "deska odpojena",
    player: "Hráč", score: "Body", time: "Čas", on_move: "na tahu", must_press: "stiskne", menu: "Nabídka",
    notice: "Zpráva", disconnected: "Spojení se simulátorem přerušeno…", lang_other: "English",
    phase: "fáze", bag: "v sáčku", crosses: "křížky", rules: "pravidla", last_move: "poslední tah",
    withdrawn: "vzato zpět", result: "Výsledek", winner_mark: "vítěz", team: "Dvojice",
    advance_real: "Čas tu běží skutečně: posouvat ho lze jen v simulátoru spuštěném s --time manual.",
    failed: "Nepovedlo se", sheet: "Partiář (tisk)",
  },
  en: {
    title: "Partiar – table simulator", check_square: "Tile-set check square", clear_board: "Clear the board",
    unplug: "Unplug the board", replug: "Plug the board in", fault_mode: "Fault mode",
    hint: "Click a square, then a letter (or type it). Click a tile to lift it.",
    hint_fault: "Fault mode: click a square to toggle a fault (open); click a tile to make its contact flicker.",
    button_a: "Button A", button_b: "Button B", encoder_push: "Push", buzzer: "Buzzer", sound: "sound",
    led: "LED", advance: "Advance time:", kill_daemon: "Cut the power (SIGKILL)", raw: "State (JSON)",
    daemon_up: "daemon running", daemon_down: "daemon down", link_up: "board connected", link_down: "board unplugged",
    player: "Player", score: "Score", time: "Time", on_move: "on move", must_press: "must press", menu: "Menu",
    notice: "Notice", disconnected: "Lost the connection to the simulator…", lang_other: "Čeština",
    phase: "phase", bag: "in the bag", crosses: "crosses", rules: "rules", last_move: "last move",
    withdrawn: "taken back", result: "Result", winner_mark: "winner", team: "Team",
    advance_real: "Time is real here: it can only be moved in a simulator started with --time manual.",
    failed: "Failed", sheet: "Score sheet (print)",
  },
};

const LETTERS = "ABCDEFGHIJKLMNO";
const ROM_A00 = { 0x5c: "¥", 0x7e: "→", 0x7f: "←" };
let lang = localStorage.getItem("partiar-lang") || "cs";
let state = null;
let selected = null; // [row, col]
let faultMode = false;
let audio = null;
let oscillator = null;

const $ = (id) => document.getElementById(id);
const t = (key) => TEXTS[lang][key] || key;

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

async function post(path, body, failure) {
  try {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    const answer = await response.json();
    // the server's own message is a developer's (English); the page says it in the page's language: what the board
    // refuses comes worded in both (``says``), anything else after the page's own "failed"
    const says = answer && answer.says && answer.says[lang];
    $("status").textContent = response.ok ? "" : failure ? t(failure) : `${t("failed")}: ${says || answer.error || response.statusText}`;
    return answer;
  } catch (error) {
    $("status").textContent = String(error);
    return null;
  }
}

// ------------------------------------------------------------------------------------------------ language
function applyLanguage() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = t("lang_other");
  $("sheet").href = `/sheet?lang=${lang}`;  // the current game's score sheet (partiar sheet's page), to print
  $("hint").textContent = t(faultMode ? "hint_fault" : "hint");
  if (state) render(state);
}

// ------------------------------------------------------------------------------------------------ board
// One notation per language (engine.board.Notation.for_language): Czech boards letter the rows A-O and number the
// columns (ČAS, square "H8" = row H, column 8); English boards letter the columns (classic, "H8" = column H, row 8).
function colLabel(c) { return lang === "cs" ? String(c + 1) : LETTERS[c]; }
function rowLabel(r) { return lang === "cs" ? LETTERS[r] : String(r + 1); }
function squareName(r, c) { return lang === "cs" ? LETTERS[r] + (c + 1) : LETTERS[c] + (r + 1); }

function buildBoard(premiums) {
  const board = $("board");
  board.dataset.lang = lang;
  board.replaceChildren(el("span", { class: "label" }));
  for (let c = 0; c < 15; c++) board.append(el("span", { class: "label col", text: colLabel(c) }));
  for (let r = 0; r < 15; r++) {
    board.append(el("span", { class: "label row", text: rowLabel(r) }));
    for (let c = 0; c < 15; c++) {
      const code = premiums[r][c];
      const cell = el("button", {
        class: "cell" + (code === "." ? "" : " p-" + code), type: "button",
        "data-row": r, "data-col": c, "aria-label": squareName(r, c),
      });
      cell.addEventListener("click", () => clickCell(r, c));
      board.append(cell);
    }
  }
}

function cellNode(r, c) {
  return document.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
}

// Word and letter premiums: Czech boards say slovo/písmeno (3×S, 2×P), English ones word/letter (3×W, 2×L).
function premiumLabel(code) {
  const [word, letter] = lang === "cs" ? ["S", "P"] : ["W", "L"];
  return { T: `3×${word}`, D: `2×${word}`, t: `3×${letter}`, d: `2×${letter}` }[code] || "";
}

// A move's position in the page's notation from the table's [row, col, across] (the table writes its own
// language's): ČAS "H4V"/"H4S" in Czech, classic "8D" across / "D8" down in English.
function positionName(at) {
  const [r, c, across] = at;
  if (lang === "cs") return squareName(r, c) + (across ? "V" : "S");
  return across ? String(r + 1) + LETTERS[c] : squareName(r, c);
}

function renderBoard(s) {
  if (!$("board").childElementCount || $("board").dataset.lang !== lang) buildBoard(s.premiums);
  const faults = new Set(s.board.faults.map(([r, c]) => r + "," + c));
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const node = cellNode(r, c);
      const letter = s.board.cells[r][c];
      node.classList.toggle("tile", letter !== null);
      node.classList.toggle("blank", letter === "?");
      node.classList.toggle("fault", faults.has(r + "," + c));
      node.classList.toggle("selected", selected !== null && selected[0] === r && selected[1] === c);
      node.textContent = letter !== null ? letter : premiumLabel(s.premiums[r][c]);
      node.dataset.letter = letter || "";
    }
  }
  const plugged = s.board.plugged;
  $("plug").textContent = t(plugged ? "unplug" : "replug");
  $("plug").dataset.plugged = plugged;
}

function renderPalette(s) {
  const placed = {};
  for (const row of s.board.cells) for (const x of row) if (x !== null) placed[x] = (placed[x] || 0) + 1;
  const palette = $("palette");
  const letters = [...s.tiles.letters, "?"];
  if (palette.childElementCount !== letters.length) {
    palette.replaceChildren();
    for (const letter of letters) {
      const button = el("button", { class: "letter", type: "button", "data-letter": letter });
      button.addEventListener("click", () => placeLetter(letter));
      palette.append(button);
    }
  }
  for (const button of palette.children) {
    const letter = button.dataset.letter;
    const total = letter === "?" ? s.tiles.blanks : s.tiles.counts[letter];
    const left = total - (placed[letter] || 0);
    button.replaceChildren(letter, el("sub", { text: String(left) }));
    button.disabled = left <= 0;
    button.title = letter === "?" ? "blank" : `${s.tiles.points[letter]} b.`;
  }
}

function clickCell(r, c) {
  const letter = state && state.board.cells[r][c];
  if (faultMode) {
    if (letter) post("/api/board", { op: "flicker", row: r, col: c, times: 5 });
    else {
      const faulty = state.board.faults.some(([fr, fc]) => fr === r && fc === c);
      post("/api/board", faulty ? { op: "unfault", row: r, col: c } : { op: "fault", row: r, col: c, kind: "open" });
    }
    return;
  }
  if (letter) {
    post("/api/board", { op: "remove", row: r, col: c });
    return;
  }
  selected = [r, c];
  if (state) renderBoard(state);
}

async function placeLetter(letter) {
  if (selected === null) {
    $("status").textContent = t("hint");
    return;
  }
  // The selection moves on before the sim answers: keys typed faster than an answer comes each go to their own
  // square (waiting for the answer sent every key typed meanwhile to the same square). A refused letter takes the
  // selection back to its square unless it has moved on since.
  const [r, c] = selected;
  if (c < 14) selected = [r, c + 1];
  if (state) renderBoard(state);
  const answer = await post("/api/board", { op: "place", row: r, col: c, letter });
  if ((!answer || answer.error) && selected !== null && selected[0] === r && selected[1] === Math.min(c + 1, 14)) {
    selected = [r, c];
    if (state) renderBoard(state);
  }
}

// ------------------------------------------------------------------------------------------------ LCDs
function glyphNode(bitmap) {
  const node = el("span", { class: "glyph" });
  for (const bits of bitmap) {
    for (let x = 4; x >= 0; x--) node.append(el("span", { class: (bits >> x) & 1 ? "dot on" : "dot" }));
  }
  return node;
}

function renderLcds(panel) {
  const area = $("lcds");
  const lcds = (panel && panel.lcds) || [];
  area.replaceChildren();
  lcds.forEach((lcd, index) => {
    const box = el("div", { class: "lcd", "data-index": index, "data-backlight": String(lcd.backlight !== false) });
    const cells = lcd.cells || lcd.rows.map((row) => [...row].map((ch) => ch.charCodeAt(0)));
    cells.forEach((codes, r) => {
      const row = el("div", { class: "lcd-row", "data-text": (lcd.rows && lcd.rows[r]) || "" });
      for (const code of codes) {
        const cell = el("span", { class: "lcd-cell" });
        if (code < 16 && lcd.cgram) cell.append(glyphNode(lcd.cgram[code & 7]));
        else cell.textContent = ROM_A00[code] || (code >= 0x20 && code < 0x80 ? String.fromCharCode(code) : "▯");
        row.append(cell);
      }
      box.append(row);
    });
    area.append(box);
  });
}

// ------------------------------------------------------------------------------------------------ buzzer
function setBuzzer(on, hz) {
  $("buzzer").dataset.on = String(on);
  const wanted = on && $("sound").checked && audio !== null;
  if (wanted && oscillator === null) {
    oscillator = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    oscillator.type = "square";
    oscillator.frequency.value = hz || 2000;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
  } else if (wanted) {
    oscillator.frequency.value = hz || 2000;
  } else if (oscillator !== null) {
    oscillator.stop();
    oscillator = null;
  }
}

// ------------------------------------------------------------------------------------------------ game view
// The game's words (who must press, times, phase, result) come from the daemon in both languages
// (``says``, built by device/announce.py from device/texts.py): the page picks its language.
function renderGame(table) {
  const area = $("game");
  area.replaceChildren();
  if (!table || typeof table !== "object") return;
  const says = (table.says && table.says[lang]) || {};
  const game = table.game || {};
  const names = table.players || [];
  const result = says.result || null;
  const scores = result ? result.rows[result.rows.length - 1].values : (game.scores || []);
  const times = says.times || [];
  const next = Number.isInteger(says.next_player) ? says.next_player : null;
  const mark = ["on_move", "blank"].includes(says.next_kind) ? t("on_move") : t("must_press");
  const winners = new Set(result ? result.winners : []);  // the result's columns: players, in doubles the teams
  const teams = game.teams && Array.isArray(game.teams.names) && Array.isArray(game.teams.members) ? game.teams : null;
  const head = el("tr", {}, [el("th", { text: t(teams ? "team" : "player") }), el("th", { text: t("score") }),
                             el("th", { text: t("time") })]);
  const row = (classes, data, label, score, time) => el("tr", { class: classes.filter(Boolean).join(" "), ...data }, [
    el("td", { class: "name", text: label }),
    el("td", { class: "score", text: score !== undefined && score !== null ? String(score) : "" }),
    el("td", { class: "time", text: time || "" }),
  ]);
  const playerRow = (i, classes, score) => {
    let label = names[i] ?? String(i + 1);
    if (i === next && says.next_kind !== "racks") label += ` (${mark})`;
    if (!teams && winners.has(i)) label += ` ★ ${t("winner_mark")}`;
    return row([...classes, i === next ? "on-move" : ""], { "data-player": i }, label, score, times[i]);
  };
  // doubles (seed 003): the score, the crosses and the result are the team's: a row per team with its total,
  // its two players under it (who is on move, the move time)
  const rows = teams
    ? teams.names.flatMap((name, side) => [
      row(["team", winners.has(side) ? "winner" : ""], { "data-team": side },
          winners.has(side) ? `${name} ★ ${t("winner_mark")}` : name, (result ? scores : teams.totals || [])[side], ""),
      ...(teams.members[side] || []).map((p) => playerRow(p, ["member"], null)),
    ])
    : names.map((name, i) => playerRow(i, [winners.has(i) ? "winner" : ""], scores[i]));
  area.append(el("table", { class: "players" }, [head, ...rows]));
  if (says.next) area.append(el("p", { id: "next", class: "next", text: says.next }));
  if (result) area.append(resultTable(result, names));
  const facts = [];
  if (says.ruleset) facts.push(`${t("rules")}: ${says.ruleset}`);
  if (says.phase) facts.push(`${t("phase")}: ${says.phase}`);
  if (Number.isInteger(game.bag_count)) facts.push(`${t("bag")}: ${game.bag_count}`);
  const crosses = game.crosses || [];
  if (crosses.some((n) => n > 0)) facts.push(`${t("crosses")}: ${crosses.join(" / ")}`);
  const last = table.last_move;
  const where = last && Array.isArray(last.at) ? positionName(last.at) : last && last.position;
  const outcome = last && last.kind === "withdrawn" ? t("withdrawn") : last && last.score;  // a withdrawn play scored nothing
  if (last && last.word) facts.push(`${t("last_move")}: ${[last.word, where, outcome].filter((x) => x !== null && x !== undefined && x !== "").join(" ")}`);
  if (facts.length) area.append(el("p", { class: "facts", text: facts.join(" · ") }));
  if (table.notice) area.append(el("div", { class: "menu", text: `${t("notice")}: ` + table.notice.join("\n") }));
  if (table.menu) area.append(el("div", { class: "menu", text: `${t("menu")}:\n` + table.menu.join("\n") }));
  const link = $("link");
  link.dataset.state = table.link_up ? "up" : "down";
  link.textContent = t(table.link_up ? "link_up" : "link_down");
}

function resultTable(result, names) {
  const box = el("div", { id: "result", class: "result" });
  box.append(el("h2", { text: t("result") }));
  const head = el("tr", {}, [el("th"), ...(result.names || names).map((n) => el("th", { text: n }))]);
  const rows = result.rows.map((row, i) =>
    el("tr", { class: i === result.rows.length - 1 ? "final" : "" },
      [el("td", { text: row.label }), ...row.values.map((v) => el("td", { class: "num", text: v }))]));
  box.append(el("table", {}, [head, ...rows]));
  box.append(el("p", { class: "winner", text: result.winner }));
  box.append(el("p", { class: "ended-by", text: result.ended_by }));
  return box;
}

// ------------------------------------------------------------------------------------------------ state
function render(s) {
  state = s;
  renderBoard(s);
  renderPalette(s);
  const panel = s.panel;
  renderLcds(panel);
  setBuzzer(Boolean(panel && panel.buzzer), panel && panel.buzzer_hz);
  $("led").dataset.on = String(Boolean(panel && panel.led));
  const daemon = $("daemon");
  const up = Boolean(s.daemon && s.daemon.ready && panel);
  daemon.dataset.state = up ? "up" : "down";
  daemon.textContent = t(up ? "daemon_up" : "daemon_down");
  $("time-controls").hidden = s.time_mode !== "manual";
  renderGame(panel && panel.table);
  $("raw").textContent = JSON.stringify(panel && panel.table, null, 1);
  document.body.dataset.ready = "true";
}

function connect() {
  const events = new EventSource("/api/events");
  events.onmessage = (message) => {
    if ($("status").textContent === t("disconnected")) $("status").textContent = "";
    render(JSON.parse(message.data));
  };
  events.onerror = () => {
    $("status").textContent = t("disconnected");
    // the browser retries a dropped stream itself, but not one the server refused (a 503): open a new one
    if (events.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

function wire() {
  $("lang").addEventListener("click", () => {
    lang = lang === "cs" ? "en" : "cs";
    localStorage.setItem("partiar-lang", lang);
    applyLanguage();
  });
  $("press-a").addEventListener("click", () => post("/api/press", { button: "a" }));
  $("press-b").addEventListener("click", () => post("/api/press", { button: "b" }));
  $("press-encoder").addEventListener("click", () => post("/api/press", { button: "encoder" }));
  $("turn-cw").addEventListener("click", () => post("/api/turn", { steps: 1 }));
  $("turn-ccw").addEventListener("click", () => post("/api/turn", { steps: -1 }));
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.addEventListener("click", () => {
      if (state && state.time_mode !== "manual") $("status").textContent = t("advance_real");
      else post("/api/advance", { seconds: Number(button.dataset.advance) });
    });
  }
  $("check-square").addEventListener("click", () => post("/api/board", { op: "check_square" }));
  $("clear-board").addEventListener("click", () => post("/api/board", { op: "clear" }));
  $("plug").addEventListener("click", () =>
    post("/api/board", { op: $("plug").dataset.plugged === "false" ? "replug" : "unplug" }));
  $("fault-mode").addEventListener("click", () => {
    faultMode = !faultMode;
    $("fault-mode").setAttribute("aria-pressed", String(faultMode));
    $("hint").textContent = t(faultMode ? "hint_fault" : "hint");
  });
  $("kill-daemon").addEventListener("click", () => post("/api/daemon/kill", {}));
  $("sound").addEventListener("change", () => state && render(state));
  // Browsers only allow sound after a gesture: make the audio context on the first click.
  document.addEventListener("pointerdown", () => {
    if (audio === null && window.AudioContext) audio = new AudioContext();
  }, { once: true });
  document.addEventListener("keydown", (event) => {
    if (selected === null || event.ctrlKey || event.metaKey || event.altKey || !state) return;
    const key = event.key.length === 1 ? event.key.toUpperCase() : "";
    if (key === "?" || key in state.tiles.counts) {
      event.preventDefault();
      placeLetter(key);
    } else if (event.key === "Escape") {
      selected = null;
      renderBoard(state);
    }
  });
}

wire();
applyLanguage();
connect();
