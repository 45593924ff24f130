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
    player: "Hráč", score: "Body", time: "Čas", on_move: "na tahu", menu: "Nabídka", notice: "Zpráva",
    disconnected: "Spojení se simulátorem přerušeno…", lang_other: "English",
    phase: "fáze", bag: "v sáčku", crosses: "křížky", ended: "konec",
  },
  en: {
    title: "Partiar – table simulator", check_square: "Tile-set check square", clear_board: "Clear the board",
    unplug: "Unplug the board", replug: "Plug the board in", fault_mode: "Fault mode",
    hint: "Click a square, then a letter (or type it). Click a tile to lift it.",
    hint_fault: "Fault mode: click a square to toggle a fault (open); click a tile to make its contact flicker.",
    button_a: "Button A", button_b: "Button B", encoder_push: "Push", buzzer: "Buzzer", sound: "sound",
    led: "LED", advance: "Advance time:", kill_daemon: "Cut the power (SIGKILL)", raw: "State (JSON)",
    daemon_up: "daemon running", daemon_down: "daemon down", link_up: "board connected", link_down: "board unplugged",
    player: "Player", score: "Score", time: "Time", on_move: "on move", menu: "Menu", notice: "Notice",
    disconnected: "Lost the connection to the simulator…", lang_other: "Čeština",
    phase: "phase", bag: "in the bag", crosses: "crosses", ended: "ended",
  },
};

const COLS = "ABCDEFGHIJKLMNO";
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

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    const answer = await response.json();
    $("status").textContent = response.ok ? "" : answer.error || response.statusText;
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
  $("hint").textContent = t(faultMode ? "hint_fault" : "hint");
  if (state) render(state);
}

// ------------------------------------------------------------------------------------------------ board
function buildBoard(premiums) {
  const board = $("board");
  board.replaceChildren(el("span", { class: "label" }));
  for (const c of COLS) board.append(el("span", { class: "label", text: c }));
  for (let r = 0; r < 15; r++) {
    board.append(el("span", { class: "label", text: String(r + 1) }));
    for (let c = 0; c < 15; c++) {
      const code = premiums[r][c];
      const cell = el("button", {
        class: "cell" + (code === "." ? "" : " p-" + code), type: "button",
        "data-row": r, "data-col": c, "aria-label": COLS[c] + (r + 1),
      });
      cell.addEventListener("click", () => clickCell(r, c));
      board.append(cell);
    }
  }
}

function cellNode(r, c) {
  return document.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
}

function premiumLabel(code) {
  return { T: "3×S", D: "2×S", t: "3×P", d: "2×P" }[code] || "";
}

function renderBoard(s) {
  if (!$("board").childElementCount) buildBoard(s.premiums);
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
  const [r, c] = selected;
  const answer = await post("/api/board", { op: "place", row: r, col: c, letter });
  if (answer && !answer.error && c < 14) selected = [r, c + 1];
  if (state) renderBoard(state);
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
function scoresOf(game) {
  if (!game) return null;
  if (Array.isArray(game.scores)) return game.scores;
  if (Array.isArray(game.players) && game.players.every((p) => p && typeof p === "object" && "score" in p)) {
    return game.players.map((p) => p.score);
  }
  return null;
}

function onMoveOf(table) {
  const game = table.game || {};
  const clock = table.clock || {};
  for (const value of [game.player_on_move, clock.player_on_move, game.to_move, clock.on_move, clock.active]) {
    if (Number.isInteger(value)) return value;
  }
  return null;
}

function formatSeconds(value) {
  if (typeof value !== "number") return "";
  const sign = value < 0 ? "−" : "";
  const s = Math.abs(Math.round(value));
  return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function timesOf(clock) {
  if (!clock) return null;
  for (const key of ["remaining", "times", "left"]) if (Array.isArray(clock[key])) return clock[key];
  if (Array.isArray(clock.players)) return clock.players.map((p) => p && p.remaining);
  return null;
}

function renderGame(table) {
  const area = $("game");
  area.replaceChildren();
  if (!table || typeof table !== "object") return;
  const names = table.players || [];
  const scores = scoresOf(table.game) || [];
  const times = timesOf(table.clock) || [];
  const onMove = onMoveOf(table);
  const head = el("tr", {}, [el("th", { text: t("player") }), el("th", { text: t("score") }), el("th", { text: t("time") })]);
  const rows = names.map((name, i) =>
    el("tr", { class: i === onMove ? "on-move" : "", "data-player": i }, [
      el("td", { text: name + (i === onMove ? ` (${t("on_move")})` : "") }),
      el("td", { class: "score", text: scores[i] !== undefined ? String(scores[i]) : "" }),
      el("td", { text: formatSeconds(times[i]) }),
    ]));
  const crosses = (table.game && table.game.crosses) || [];
  area.append(el("table", {}, [head, ...rows]));
  const game = table.game || {};
  const facts = [];
  if (game.phase) facts.push(`${t("phase")}: ${game.phase}`);
  if (Number.isInteger(game.bag_count)) facts.push(`${t("bag")}: ${game.bag_count}`);
  if (crosses.some((n) => n > 0)) facts.push(`${t("crosses")}: ${crosses.join(" / ")}`);
  if (game.ended) facts.push(`${t("ended")}: ${game.ended}`);
  if (facts.length) area.append(el("p", { class: "facts", text: facts.join(" · ") }));
  if (table.notice) area.append(el("div", { class: "menu", text: `${t("notice")}: ` + table.notice.join("\n") }));
  if (table.menu) area.append(el("div", { class: "menu", text: `${t("menu")}:\n` + table.menu.join("\n") }));
  const link = $("link");
  link.dataset.state = table.link_up ? "up" : "down";
  link.textContent = t(table.link_up ? "link_up" : "link_down");
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
  events.onerror = () => { $("status").textContent = t("disconnected"); };
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
    button.addEventListener("click", () => post("/api/advance", { seconds: Number(button.dataset.advance) }));
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
