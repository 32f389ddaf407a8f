// The godsearch page: every puzzle rule is the server's (solving, scrambling, replaying a
// solution); this script draws, sends requests and keeps the comparison table.
"use strict";

const $ = (id) => document.getElementById(id);
const COLOURS = { U: "#ffffff", R: "#c41e3a", F: "#009e60", D: "#ffd500", L: "#ff5800", B: "#0051ba" };
// Where each face of a net goes, in face widths: U above F, then L F R B, then D.
const NET = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };
const FACE_ORDER = "URFDLB";

const state = {
  catalog: null,
  puzzle: "3x3",
  entry: null,      // the puzzle's catalog entry: what to draw (view), what it takes
  width: 3,
  height: 3,
  position: "",     // as the user or a scramble gave it
  shown: "",        // what the view shows: a tile list or 54 facelets
  goal: "",         // the goal shown as solved: a tile list (boards), a stack, or ""
  goalText: "",     // a board's Goal field as set: "" for the puzzle's own goal
  job: null,        // the running solve's job number
  bfsJob: null,     // the running enumeration's
  runs: [],         // each solve: its request and the server's report
  levels: [],       // the last enumeration's counts, by distance
  play: { positions: [], moves: [], at: 0, timer: null },
};

async function api(path, body, method) {
  const options = body === undefined ? { method: method || "GET" } : {
    method: method || "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  if (!response.ok) throw new Error((data && data.error) || response.statusText);
  return data;
}

function setError(id, message) { $(id).textContent = message || ""; }

// ---------- puzzle and view ----------

// The largest board the page draws, in cells (the server takes larger ones).
const LARGEST_DRAWN_CELLS = 100;

// The catalog entry of any name a request may give (`4x5`, `pancake-12`): the catalog's, or
// the server's answer, kept beside the catalog's; an error in the server's words when no
// puzzle has that name. The page reads no names itself: the registry does.
async function entryOf(name) {
  const known = state.catalog.puzzles.find((p) => p.name === name);
  if (known) return known;
  const entry = await api(`/api/puzzles/${encodeURIComponent(name)}`);
  if (entry.view.shape === "board" && entry.view.width * entry.view.height > LARGEST_DRAWN_CELLS) {
    throw new Error(`the page draws boards of at most ${LARGEST_DRAWN_CELLS} cells; the command line and the API take ${entry.name}`);
  }
  if (!state.catalog.puzzles.some((p) => p.name === entry.name)) state.catalog.puzzles.push(entry);
  return entry;
}

function choosePuzzle(name) {
  setPuzzle(name);
  fillAlgorithms();
  // Levels counted belong to the puzzle they were counted for.
  drawLevels([]);
  $("bfs-progress").textContent = "";
  stopPlay();
  state.play = { positions: [], moves: [], at: 0, timer: null };
  $("play-moves").textContent = "";
  $("play-status").textContent = "Solve a position, then play its solution.";
  return resetPosition();
}

// The puzzle's entry, view, goal and the controls it takes, without touching the position.
// Its entry is known (entryOf) before it is set; nothing here asks which puzzle it is.
function setPuzzle(name) {
  const entry = state.catalog.puzzles.find((p) => p.name === name);
  const changed = entry !== state.entry;
  state.puzzle = name;
  state.entry = entry;
  document.body.className = entry.view.shape;
  if (entry.view.shape === "board") [state.width, state.height] = [entry.view.width, entry.view.height];
  // A goal set belongs to the board it was set for.
  if (changed) {
    state.goalText = "";
    $("goal").value = "";
    state.goal = replayedView() ? "" : entry.goal;
  }
  const metric = $("metric");
  const chosen = metric.value;
  metric.innerHTML = "";
  for (const m of entry.metrics) metric.add(new Option(m, m));
  if (entry.metrics.includes(chosen)) metric.value = chosen;
  const offered = {
    heuristic: entry.heuristics.length > 0,
    pdb: entry.options.includes("pdb"),
    metric: entry.metrics.length > 0,
    optimal: offersOptimal(),
    goal: entry.options.includes("goal"),
  };
  for (const label of document.querySelectorAll("[data-option]")) {
    label.style.display = offered[label.dataset.option] ? "inline" : "none";
  }
}

// Whether the "optimal" box means something: the puzzle takes `optimal` and its optimal
// solver, IDA*, is one of its algorithms beside faster ones.
function offersOptimal() {
  return state.entry.options.includes("optimal") && state.entry.algorithms.includes("ida");
}

function fillAlgorithms() {
  const names = state.entry.algorithms;
  const select = $("algorithm");
  select.innerHTML = "";
  for (const name of names) select.add(new Option(name, name));
  showOptions();
}

// Cubes and definition puzzles are drawn from the server's replay of what the box holds
// (moves, facelets, a pattern); boards and stacks from the list itself.
function replayedView() { return ["cube", "orbits", "text"].includes(state.entry.view.shape); }

async function resetPosition() {
  setError("error", "");
  if (replayedView()) {
    await showCubeText("");
  } else {
    showPosition(state.goal, state.goal);
  }
}

// The field of every request about the board that names its goal: none where the Goal field
// was left empty (the puzzle's own goal), so requests stay as short as they were.
function goalOption() { return state.goalText === "" ? {} : { goal: state.goalText }; }

// Reads the Goal field (boards): empty for the puzzle's own goal, else a goal as the server
// reads one (`blank-first`, Korf's, or tiles). The view then marks that board solved, the Goal
// button shows it, and every request about the board carries it (goalOption). False, with the
// server's reason shown, when the field holds no goal of this board.
async function setGoal() {
  setError("error", "");
  const text = $("goal").value.trim();
  try {
    // A walk of no moves starts and ends at the goal asked: its tile list, read by the server
    // as every request's goal is (the page reads no boards itself).
    const goal = text === "" ? state.entry.goal
      : (await api("/api/scramble", { puzzle: state.puzzle, moves: 0, goal: text }))[0].position;
    state.goalText = text;
    state.goal = goal;
    // Levels counted belong to the goal they were counted from.
    drawLevels([]);
    draw(state.shown);
    saveToUrl();
    return true;
  } catch (e) {
    setError("error", e.message);
    return false;
  }
}

// Whether the Goal box holds the goal set; one typed but not yet set (no Enter, focus not
// left) is read first.
async function takeGoal() {
  return $("goal").value.trim() === state.goalText || setGoal();
}

async function showCubeText(text) {
  const replayed = await api("/api/replay", { puzzle: state.puzzle, position: text, solution: "" });
  showPosition(text, replayed.positions[0]);
}

function showPosition(given, shown) {
  state.position = given;
  state.shown = shown;
  $("position").value = given;
  draw(shown);
  saveToUrl();
}

function draw(shown) {
  const view = $("view");
  // A board keeps its tiles from one position to the next (drawBoard), so moves slide.
  const shape = state.entry.view.shape;
  if (shape !== "board") view.innerHTML = "";
  if (shape === "board") {
    drawBoard(view, shown);
    $("view-hint").textContent = "Click a tile next to the blank, or use the arrow keys, to move it.";
  } else if (shape === "stack") {
    drawStack(view, shown);
    $("view-hint").textContent = "The stack, top first: click a pancake to flip it and those above it.";
  } else if (shape === "orbits") {
    drawPattern(view, shown);
    $("view-hint").textContent = "Each orbit's slots, each showing the piece in it (its colour says which) and its twist: click a move to make it.";
  } else if (shape !== "cube") {
    const text = document.createElement("pre");
    text.textContent = shown;
    view.appendChild(text);
    $("view-hint").textContent = "";
  } else {
    drawNet(view, shown);
    draw3d(view, shown);
    $("view-hint").textContent = "The cube as a net (U on top, then L F R B, D below) and in 3D: drag it to turn it.";
  }
}

// How each face of the 3D view is placed: turned to face outwards, then pushed out by half
// the cube's width. Each face's stickers are laid out as the net reads them from outside.
const FACE_3D = {
  U: "rotateX(90deg)", D: "rotateX(-90deg)", F: "", B: "rotateY(180deg)",
  R: "rotateY(90deg)", L: "rotateY(-90deg)",
};
const view3d = { x: -28, y: -38 };

function draw3d(view, facelets) {
  const pocket = state.entry.view.order === 2;
  const n = pocket ? 2 : 3;
  const size = 150;
  const centres = {};
  for (let f = 0; f < 6; f++) centres[facelets[9 * f + 4]] = FACE_ORDER[f];
  const scene = document.createElement("div");
  scene.className = "scene";
  scene.id = "cube3d";
  const cube = document.createElement("div");
  cube.className = "cube3d";
  const place = () => { cube.style.transform = `rotateX(${view3d.x}deg) rotateY(${view3d.y}deg)`; };
  place();
  for (let f = 0; f < 6; f++) {
    const name = FACE_ORDER[f];
    const face = document.createElement("div");
    face.className = "face3d";
    face.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    face.style.transform = `${FACE_3D[name]} translateZ(${size / 2}px)`;
    for (let i = 0; i < n * n; i++) {
      const index = pocket ? [0, 2, 6, 8][i] : i;
      const sticker = document.createElement("div");
      sticker.style.background = COLOURS[centres[facelets[9 * f + index]]] || "#888";
      face.appendChild(sticker);
    }
    cube.appendChild(face);
  }
  scene.appendChild(cube);
  let drag = null;
  scene.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY }; scene.setPointerCapture(e.pointerId); });
  scene.addEventListener("pointermove", (e) => {
    if (!drag) return;
    view3d.y += (e.clientX - drag.x) * 0.5;
    view3d.x -= (e.clientY - drag.y) * 0.5;
    drag = { x: e.clientX, y: e.clientY };
    place();
  });
  scene.addEventListener("pointerup", () => { drag = null; });
  view.appendChild(scene);
}

// Tile sizes in pixels (boards of more than 30 cells get the small ones) and the gap.
const TILE_SIZE = 44, SMALL_TILE_SIZE = 30, TILE_GAP = 3, SMALL_BOARD_CELLS = 30;

// A board of absolutely placed tiles, one element per tile kept from one position to the
// next, so that a move slides its tile (the style sheet animates the transform). The board's
// `data-position` holds the list shown.
function drawBoard(view, list) {
  const tiles = tilesOf(list);
  const small = state.width * state.height > SMALL_BOARD_CELLS;
  const size = small ? SMALL_TILE_SIZE : TILE_SIZE;
  const shape = `${state.width}x${state.height}`;
  let board = view.querySelector("#board");
  if (!board || board.dataset.shape !== shape || board.children.length !== tiles.length) {
    view.innerHTML = "";
    board = document.createElement("div");
    board.id = "board";
    board.dataset.shape = shape;
    board.style.width = `${TILE_GAP + state.width * (size + TILE_GAP)}px`;
    board.style.height = `${TILE_GAP + state.height * (size + TILE_GAP)}px`;
    for (let tile = 0; tile < tiles.length; tile++) {
      const div = document.createElement("div");
      div.className = "tile" + (tile === 0 ? " blank" : "");
      div.textContent = tile === 0 ? "" : String(tile);
      div.addEventListener("click", () => clickTile(Number(div.dataset.cell)));
      board.appendChild(div);
    }
    view.appendChild(board);
  }
  board.className = "board" + (small ? " small" : "") + (list === state.goal ? " solved" : "");
  board.dataset.position = tiles.join(",");
  tiles.forEach((tile, cell) => {
    const div = board.children[tile];
    if (!div) return;
    div.dataset.cell = String(cell);
    const x = TILE_GAP + (cell % state.width) * (size + TILE_GAP);
    const y = TILE_GAP + Math.floor(cell / state.width) * (size + TILE_GAP);
    div.style.transform = `translate(${x}px, ${y}px)`;
  });
}

// A pancake stack, top first, each pancake as wide as its size; clicking one flips the stack
// from the top down to it.
function drawStack(view, list) {
  const sizes = list.split(/[ ,]+/).filter((t) => t !== "").map(Number);
  const stack = document.createElement("div");
  stack.className = "stack" + (list === state.goal ? " solved" : "");
  stack.id = "stack";
  sizes.forEach((size, at) => {
    const pancake = document.createElement("div");
    pancake.className = "layer";
    pancake.style.width = `${Math.round(100 * size / sizes.length)}%`;
    pancake.textContent = String(size);
    pancake.title = at === 0 ? "the top pancake" : `flip the top ${at + 1}`;
    pancake.addEventListener("click", () => {
      if (at === 0) return;
      const flipped = sizes.slice(0, at + 1).reverse().concat(sizes.slice(at + 1)).join(",");
      showPosition(flipped, flipped);
    });
    stack.appendChild(pancake);
  });
  view.appendChild(stack);
}

// A definition puzzle's pattern (KPuzzle JSON, as the server's replay gives it): each orbit a
// row of its slots, each showing the piece in it, coloured by which piece it is (a piece at
// home is outlined) with its twist when it has one; then a button for each of the file's
// moves and their inverses. Anything else is shown as text.
function drawPattern(view, shown) {
  let pattern = null;
  try { pattern = JSON.parse(shown); } catch (e) { pattern = null; }
  if (!pattern || typeof pattern !== "object") {
    const text = document.createElement("pre");
    text.textContent = shown;
    view.appendChild(text);
    return;
  }
  const orbits = document.createElement("div");
  orbits.className = "orbits";
  for (const [name, orbit] of Object.entries(pattern)) {
    const row = document.createElement("div");
    row.className = "orbit";
    const label = document.createElement("span");
    label.className = "orbit-name";
    label.textContent = name;
    row.appendChild(label);
    const count = orbit.pieces.length;
    orbit.pieces.forEach((piece, slot) => {
      const twist = (orbit.orientation || [])[slot] || 0;
      const cell = document.createElement("span");
      cell.className = "piece" + (piece === slot && twist === 0 ? " home" : "");
      cell.style.background = `hsl(${Math.round(360 * piece / count)}, 60%, 72%)`;
      cell.textContent = String(piece);
      if (twist !== 0) {
        const mark = document.createElement("sup");
        mark.textContent = `\u21bb${twist}`;
        cell.appendChild(mark);
      }
      cell.title = `${name} slot ${slot}: piece ${piece}` + (twist !== 0 ? `, twisted ${twist}` : "");
      row.appendChild(cell);
    });
    orbits.appendChild(row);
  }
  view.appendChild(orbits);
  const entry = state.catalog.puzzles.find((p) => p.name === state.puzzle);
  const buttons = document.createElement("div");
  buttons.className = "move-buttons";
  for (const name of (entry && entry.moves) || []) {
    for (const move of [name, `${name}'`]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move;
      button.addEventListener("click", () => makeMove(move));
      buttons.appendChild(button);
    }
  }
  view.appendChild(buttons);
}

// Makes one move of a definition puzzle (the server replays it): a position given as moves
// gains the move, one given as a pattern becomes the pattern the move leads to.
async function makeMove(move) {
  setError("error", "");
  try {
    const replayed = await api("/api/replay", { puzzle: state.puzzle, position: state.position, solution: move });
    const after = replayed.positions[replayed.positions.length - 1];
    const given = state.position.trim().startsWith("{") ? after : `${state.position} ${move}`.trim();
    showPosition(given, after);
  } catch (e) {
    setError("error", e.message);
  }
}

function drawNet(view, facelets) {
  const pocket = state.entry.view.order === 2;
  const n = pocket ? 2 : 3;
  const cell = pocket ? 30 : 22, gap = 5, face = n * cell;
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("width", 4 * face + 3 * gap + 2);
  svg.setAttribute("height", 3 * face + 2 * gap + 2);
  svg.id = "net";
  const centres = {};
  for (let f = 0; f < 6; f++) centres[facelets[9 * f + 4]] = FACE_ORDER[f];
  for (let f = 0; f < 6; f++) {
    const [col, row] = NET[FACE_ORDER[f]];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        // A 2x2x2 shows the corner stickers of each 3x3 face.
        const index = pocket ? [0, 2, 6, 8][2 * r + c] : 3 * r + c;
        const letter = facelets[9 * f + index];
        const rect = document.createElementNS(svgNs, "rect");
        rect.setAttribute("x", 1 + col * (face + gap) + c * cell);
        rect.setAttribute("y", 1 + row * (face + gap) + r * cell);
        rect.setAttribute("width", cell - 1);
        rect.setAttribute("height", cell - 1);
        rect.setAttribute("fill", COLOURS[centres[letter]] || "#888");
        rect.setAttribute("stroke", "#222");
        svg.appendChild(rect);
      }
    }
  }
  view.appendChild(svg);
}

function tilesOf(list) { return list.split(/[ ,]+/).filter((t) => t !== "").map(Number); }

function clickTile(cell) {
  const tiles = tilesOf(state.shown);
  const blank = tiles.indexOf(0);
  const [w] = [state.width];
  const adjacent = (Math.abs(cell - blank) === 1 && Math.floor(cell / w) === Math.floor(blank / w))
    || Math.abs(cell - blank) === w;
  if (!adjacent) return;
  tiles[blank] = tiles[cell];
  tiles[cell] = 0;
  const list = tiles.join(",");
  showPosition(list, list);
}

function arrowKey(event) {
  if (state.entry.view.shape !== "board") return;
  // An arrow moves the tile beside the blank in that direction into it.
  const step = { ArrowLeft: 1, ArrowRight: -1, ArrowUp: state.width, ArrowDown: -state.width }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  const tiles = tilesOf(state.shown);
  const blank = tiles.indexOf(0);
  const cell = blank + step;
  if (cell < 0 || cell >= tiles.length) return;
  if (Math.abs(step) === 1 && Math.floor(cell / state.width) !== Math.floor(blank / state.width)) return;
  clickTile(cell);
}

// Reads the position box (checked by the server's replay) and shows it; false, with the
// server's reason shown, when the box does not hold a position of this puzzle.
async function setTyped() {
  setError("error", "");
  const text = $("position").value.trim();
  try {
    if (state.entry.view.shape === "cube") {
      await showCubeText(text);
    } else {
      const replayed = await api("/api/replay", { puzzle: state.puzzle, position: text, solution: "", ...goalOption() });
      showPosition(text, replayed.positions[0]);
    }
    return true;
  } catch (e) {
    setError("error", e.message);
    return false;
  }
}

// Whether the boxes hold what is shown; a goal or position typed but not yet set (no Set, no
// Enter) is read first, so that Solve always solves the position in the box for the goal in
// its box.
async function takeTyped() {
  if (!(await takeGoal())) return false;
  if ($("position").value.trim() === state.position.trim()) return true;
  return setTyped();
}

async function randomPosition() {
  setError("error", "");
  try {
    // A job, so that a first 3x3x3 scramble shows the two-phase tables being built.
    if (!(await takeGoal())) return;
    const doc = await runJob("scramble", { puzzle: state.puzzle, ...goalOption() }, () => {},
      (p) => { $("progress").textContent = `drawing a random position: ${progressText(p)}`; });
    $("progress").textContent = "";
    const [made] = doc.result;
    if (state.entry.view.shape === "cube") {
      await showCubeText(made.scramble || "");
    } else if (state.entry.view.shape === "orbits") {
      // A random move sequence where one was drawn, else the uniform position's pattern.
      await showCubeText(made.scramble || made.position);
    } else {
      showPosition(made.position, made.position);
    }
  } catch (e) {
    setError("error", e.message);
  }
}

// ---------- solving ----------

// The bounds of the number fields, as the server checks them (app::units): a field outside
// them is refused on the page, in words naming the field, before anything is sent.
const FIELDS = {
  timeout: { label: "Timeout", min: 0.001, max: 31536000, integer: false, unit: "seconds" },
  probe: { label: "Probe", min: 0.001, max: 31536000, integer: false, unit: "seconds" },
  depth: { label: "Depth held", min: 0, max: 1000, integer: true, unit: "moves" },
  effort: { label: "Effort", min: 1, max: 1000, integer: true, unit: "plans" },
  "max-length": { label: "Max length", min: 0, max: 100, integer: true, unit: "moves" },
  "bfs-depth": { label: "Max depth", min: 0, max: 100000, integer: true, unit: "moves" },
};

// A number field's value: undefined when empty, else a number within its bounds; anything
// else throws an error that says which field and what it takes.
function readNumber(id) {
  const field = FIELDS[id];
  const text = $(id).value.trim();
  if (text === "") return undefined;
  const value = Number(text);
  const fits = Number.isFinite(value) && (!field.integer || Number.isInteger(value))
    && value >= field.min && value <= field.max;
  if (!fits) {
    const kind = field.integer ? "a whole number" : "a number";
    throw new Error(`${field.label} takes ${kind} of ${field.unit} from ${field.min} to ${field.max.toLocaleString()}, not "${text}"; leave it empty for the default`);
  }
  return value;
}

function solveRequest() {
  const request = { puzzle: state.puzzle, ...goalOption(), position: state.position, algorithm: $("algorithm").value };
  const entry = state.entry;
  const searching = ["ida", "parallel-ida", "astar", "auto"].includes(request.algorithm);
  const heuristic = $("heuristic").value;
  if (entry.heuristics.length > 0 && searching && heuristic !== "auto") request.heuristic = heuristic;
  if (entry.options.includes("pdb") && searching && $("pdb").value.trim() !== "") request.pdb = $("pdb").value.trim();
  if (entry.metrics.length > 0) request.metric = $("metric").value;
  // Where IDA* is the optimal solver beside faster ones (the 3x3x3's two-phase): choosing it,
  // or ticking "optimal" with another, asks for it (over the table chosen; small builds in
  // seconds). Half-depth is optimal anyway.
  const wantsOptimal = request.algorithm === "ida"
    || ($("optimal").checked && request.algorithm !== "half-depth");
  if (offersOptimal() && wantsOptimal) {
    request.algorithm = "ida";
    request.optimal = true;
  }
  request.timeout = readNumber("timeout");
  // The options of the chosen method, as shown (see showOptions); empty ones are left out.
  const shown = (kind) => document.querySelector(`#more-options [data-for="${kind}"]`).style.display !== "none";
  if (shown("half-depth")) request.depth = readNumber("depth");
  if (shown("staged")) request.effort = readNumber("effort");
  if (shown("subgoal") && $("stages").value.trim() !== "") request.stages = $("stages").value.trim();
  if (shown("two-phase") && !request.optimal) request.max_length = readNumber("max-length");
  if (request.optimal) request.table_size = $("table-size").value;
  if (shown("direction")) {
    const direction = $("direction").value;
    if (direction === "backwards") request.reverse = true;
    if (direction === "both") request.both_ways = true;
  }
  if (shown("probe")) request.probe = readNumber("probe");
  return request;
}

// Sets the method's fields to `request`'s, as solveRequest would read them back (a field the
// request leaves out is emptied, a choice the menus do not hold is left as it is), and shows
// the options of the method set.
function fillForm(request) {
  const text = (id, value) => { $(id).value = value === undefined || value === null ? "" : String(value); };
  const choose = (id, value) => {
    if ([...$(id).options].some((o) => o.value === value)) $(id).value = value;
  };
  choose("algorithm", request.algorithm);
  choose("heuristic", request.heuristic || "auto");
  text("pdb", Array.isArray(request.pdb) ? request.pdb.join(" ") : request.pdb);
  if (request.metric) choose("metric", request.metric);
  $("optimal").checked = request.optimal === true;
  if (request.table_size) choose("table-size", request.table_size);
  text("timeout", request.timeout);
  text("depth", request.depth);
  text("effort", request.effort);
  text("stages", request.stages);
  text("max-length", request.max_length);
  $("direction").value = request.reverse ? "backwards" : request.both_ways ? "both" : "forwards";
  text("probe", request.probe);
  showOptions();
}

// Shows the options the chosen algorithm takes, and no others.
function showOptions() {
  const algorithm = $("algorithm").value;
  const takes = (option) => state.entry.options.includes(option);
  const optimal = offersOptimal() && (algorithm === "ida" || ($("optimal").checked && algorithm !== "half-depth"));
  const wanted = {
    "half-depth": takes("depth") && algorithm === "half-depth",
    "staged": takes("effort") && (algorithm === "two-stage" || algorithm === "subgoal"),
    "subgoal": takes("stages") && algorithm === "subgoal",
    "two-phase": takes("max_length") && !optimal && (algorithm === "two-phase" || algorithm === "auto"),
    "optimal": optimal && takes("table_size"),
    // IDA* on boards: the direction it searches, and probes of several ways.
    "direction": takes("reverse") && ["ida", "parallel-ida", "auto"].includes(algorithm),
    "probe": takes("probe") && ["ida", "parallel-ida", "auto"].includes(algorithm),
  };
  for (const label of document.querySelectorAll("#more-options [data-for]")) {
    label.style.display = wanted[label.dataset.for] ? "inline" : "none";
  }
}

// Runs a job (`/api/jobs/KIND`), reporting its progress events to `onProgress` and its number
// to `onStart` (for a cancel button); resolves with its final document (a cancelled job's too,
// when the work stopped with what it had: a lower bound, the levels so far), or rejects with
// the server's message ("cancelled" for a job cancelled before it started).
async function runJob(kind, request, onStart, onProgress) {
  const started = await api(`/api/jobs/${kind}`, request);
  onStart(started.id);
  return new Promise((resolve, reject) => {
    const events = new EventSource(started.events);
    events.addEventListener("progress", (e) => onProgress(JSON.parse(e.data), started.id));
    events.addEventListener("result", (e) => { events.close(); resolve(JSON.parse(e.data)); });
    events.addEventListener("cancelled", (e) => {
      events.close();
      const doc = e.data ? JSON.parse(e.data) : null;
      if (doc && doc.result) resolve(doc); else reject(new Error("cancelled"));
    });
    events.addEventListener("error", (e) => {
      events.close();
      const doc = e.data ? JSON.parse(e.data) : null;
      reject(new Error(doc && doc.error ? doc.error.error : "lost the connection to the server"));
    });
  });
}

// A job's progress in words: time, the way probed, IDA*'s threshold and nodes, the level
// under way.
function progressText(p) {
  const parts = [`${p.seconds.toFixed(1)} s`];
  // Tables (databases, two-phase and optimal tables) are loaded or built once and kept; their
  // time is not charged to the job's limit, and the level below is the build's.
  if (p.tables) parts.push(`loading or building ${p.tables} (not charged to the time limit)`);
  else if (p.table_seconds >= 0.1) parts.push(`${p.table_seconds.toFixed(1)} s of it on tables`);
  if (p.probe) {
    const { name, way, ways, chosen } = p.probe;
    parts.push(chosen ? `${name} chosen by the probes` : `probing ${name} (way ${way} of ${ways})`);
  }
  if (p.threshold > 0) parts.push(`threshold ${p.threshold}`, `${p.nodes.toLocaleString()} nodes`);
  if (p.level_fraction > 0 || p.levels.length > 0) {
    parts.push(`level ${p.level} (${(100 * p.level_fraction).toFixed(0)}%)`);
  }
  if (p.detail) parts.push(p.detail);
  return parts.join(", ");
}

async function solve() {
  setError("error", "");
  if (state.job !== null) return;
  if (!(await takeTyped())) return;
  let request;
  try {
    request = solveRequest();
  } catch (e) {
    setError("error", e.message);
    return;
  }
  await runSolve(request);
}

// Solves `request` as a job, showing its progress, and adds its row to the comparison.
async function runSolve(request) {
  $("solve").disabled = true;
  $("hints").innerHTML = "";
  try {
    const doc = await runJob("solve", request, (id) => {
      state.job = id;
      $("cancel").disabled = false;
      $("progress").textContent = `job ${id}: starting…`;
    }, (p, id) => { $("progress").textContent = `job ${id}: ${progressText(p)}`; });
    const result = doc.result;
    const tables = doc.progress && doc.progress.table_seconds >= 0.05
      ? ` (and ${formatSeconds(doc.progress.table_seconds)} loading or building its tables, apart)` : "";
    $("progress").textContent = (result.timed_out && result.lower_bound !== null && !result.solution
      ? `job ${doc.id}: stopped after ${formatSeconds(result.seconds)}; every solution has at least ${result.lower_bound} moves`
      : `job ${doc.id}: done in ${formatSeconds(result.seconds)}`) + tables;
    addRun(result, request);
    showHints(doc.progress ? doc.progress.hints : [], request);
  } catch (e) {
    if (e.message === "cancelled") {
      $("progress").textContent = "cancelled";
    } else {
      $("progress").textContent = "";
      setError("error", e.message);
    }
  } finally {
    state.job = null;
    $("solve").disabled = false;
    $("cancel").disabled = true;
  }
}

// The server's hints for the last solve (a database that would make long boards far faster),
// each with a button that builds what it names (a pdb job, its progress shown) and then
// solves the same position again.
function showHints(hints, request) {
  const box = $("hints");
  box.innerHTML = "";
  for (const hint of hints || []) {
    const line = document.createElement("p");
    line.className = "hint";
    line.textContent = `${hint.text} `;
    if (hint.partition) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "build-hint";
      button.textContent = `Build the ${hint.partition} databases, then solve again`;
      button.addEventListener("click", () => buildThenSolve(hint.partition, request));
      line.appendChild(button);
    }
    box.appendChild(line);
  }
}

async function buildThenSolve(partition, request) {
  $("hints").innerHTML = "";
  setError("error", "");
  $("solve").disabled = true;
  try {
    await runJob("pdb", { puzzle: request.puzzle, partition, goal: request.goal }, (id) => {
      state.job = id;
      $("cancel").disabled = false;
    }, (p, id) => { $("progress").textContent = `job ${id}: ${progressText(p)}`; });
  } catch (e) {
    $("progress").textContent = e.message === "cancelled" ? "cancelled" : "";
    if (e.message !== "cancelled") setError("error", e.message);
    return;
  } finally {
    state.job = null;
    $("solve").disabled = false;
    $("cancel").disabled = true;
  }
  await runSolve(request);
}

async function cancel() {
  if (state.job === null) return;
  $("progress").textContent += " — cancelling…";
  try {
    await api(`/api/jobs/${state.job}`, undefined, "DELETE");
  } catch (e) {
    setError("error", e.message);
  }
}

function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return "";
  if (bytes === 0) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit++; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

// A time with three significant digits in the unit that suits it (85.9 µs, 12.3 ms, 4.56 s),
// so that runs of very different lengths are all told apart.
function formatSeconds(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const [value, unit] = seconds < 1e-3 ? [seconds * 1e6, "µs"]
    : seconds < 1 ? [seconds * 1e3, "ms"] : [seconds, "s"];
  return `${value.toPrecision(3)} ${unit}`;
}

// The comparison table's columns, the key ones first (they stay in view on a narrow screen,
// the rest scroll in the table's own box); long texts are cut, whole in their tooltip.
const RUN_COLUMNS = ["#", "puzzle", "algorithm", "length", "optimal", "time", "", "heuristic / method",
  "nodes expanded", "nodes generated", "memory"];
const TEXT_COLUMNS = new Set(["puzzle", "algorithm", "heuristic / method"]);

function addRun(result, request) {
  const run = {
    number: state.runs.length + 1,
    puzzle: result.puzzle,
    start: request.position,
    request,
    result,
  };
  state.runs.push(run);
  const stopped = result.timed_out ? " (stopped)" : "";
  // A search stopped before it found a solution has nothing to play; IDA* on a board goes on
  // from its bound instead.
  const playable = !(result.timed_out && !result.solution && result.length === 0 && result.lower_bound);
  // (A run is added for the puzzle shown, whose entry says what it takes.)
  const continuable = !playable && Array.isArray(result.thresholds) && result.thresholds.length > 0
    && state.entry.options.includes("resume_from");
  const values = {
    "#": run.number,
    // (The report does not name a board's goal: the request does, where it set one.)
    puzzle: result.puzzle + (request.goal ? ` (goal ${request.goal})` : ""),
    algorithm: (result.algorithm || request.algorithm) + stopped,
    length: result.timed_out && !result.solution ? `≥ ${result.lower_bound}` : result.length,
    optimal: result.optimal ? "yes" : "no",
    time: formatSeconds(result.seconds),
    // Puzzles solved by the generic engines (pancakes, definition files) report the method
    // in words instead of an algorithm and heuristic.
    "heuristic / method": result.heuristic || result.metric || result.method || "",
    "nodes expanded": result.nodes_expanded.toLocaleString(),
    "nodes generated": result.nodes_generated === undefined ? "" : result.nodes_generated.toLocaleString(),
    memory: formatBytes(result.memory_bytes),
  };
  const row = document.createElement("tr");
  for (const column of RUN_COLUMNS) {
    const td = document.createElement("td");
    if (column === "") {
      if (playable) {
        const button = document.createElement("button");
        button.textContent = "play";
        button.type = "button";
        button.className = "play-run";
        button.addEventListener("click", () => loadPlay(run));
        td.appendChild(button);
      } else if (continuable) {
        const button = document.createElement("button");
        button.textContent = "continue";
        button.type = "button";
        button.className = "continue-run";
        button.title = `search on from ${result.lower_bound}, the work finished not done again`;
        button.addEventListener("click", () => continueRun(run));
        td.appendChild(button);
      }
    } else {
      td.textContent = String(values[column]);
      if (TEXT_COLUMNS.has(column)) {
        td.className = "text";
        td.title = String(values[column]);
      }
    }
    row.appendChild(td);
  }
  $("runs").tBodies[0].appendChild(row);
  saveToUrl();
  if (playable) loadPlay(run);
}

// The request that goes on with `result`, a search of `request` stopped with its bound proven:
// from that bound, skipping the subtrees of its iteration it finished (their token), and where
// probes chose a way, by that way alone (its partition and direction, no probes), whose token
// it is — the command line's "continue with" (`continue_with`, `SearchWay::applied_to`).
function continuation(request, result) {
  const next = { ...request, resume_from: result.lower_bound };
  delete next.resume_subtrees;
  if (result.searched_subtrees) next.resume_subtrees = result.searched_subtrees;
  const way = result.chosen_way;
  if (way) {
    for (const option of ["pdb", "reverse", "both_ways", "probe"]) delete next[option];
    if (way.pdb) next.pdb = way.pdb;
    if (way.reverse) next.reverse = true;
  }
  return next;
}

// Searches on from where `run` stopped (a new row), unless a job is under way.
async function continueRun(run) {
  if (state.job !== null) return;
  setError("error", "");
  await runSolve(continuation(run.request, run.result));
}

// ---------- playing a solution ----------

async function loadPlay(run) {
  stopPlay();
  setError("error", "");
  if (run.puzzle !== state.puzzle) {
    $("puzzle").value = run.puzzle;
    setPuzzle(run.puzzle);
    fillAlgorithms();
  }
  try {
    const replayed = await api("/api/replay", {
      puzzle: run.puzzle, position: run.start, solution: run.result.solution, goal: run.request.goal,
    });
    // Board solutions are letters in a row (UULDR); cube moves are separated by spaces.
    const moves = state.entry.view.shape === "board" && !/\s/.test(run.result.solution.trim())
      ? run.result.solution.split("")
      : run.result.solution.split(/\s+/).filter((m) => m !== "");
    state.play = { positions: replayed.positions, moves, at: 0, timer: null, run };
    state.position = run.start;
    $("position").value = run.start;
    showStep();
  } catch (e) {
    setError("error", e.message);
  }
}

function showStep() {
  const play = state.play;
  if (play.positions.length === 0) return;
  state.shown = play.positions[play.at];
  draw(state.shown);
  const total = play.moves.length;
  $("play-status").textContent = `run ${play.run.number}: move ${play.at} of ${total}`
    + (play.at === total ? " — solved" : "");
  const line = $("play-moves");
  line.innerHTML = "";
  play.moves.forEach((move, i) => {
    const span = document.createElement("span");
    span.textContent = move + " ";
    if (i < play.at) span.className = "done";
    if (i === play.at) span.className = "next";
    line.appendChild(span);
  });
}

function step(delta) {
  const play = state.play;
  if (play.positions.length === 0) return false;
  const next = play.at + delta;
  if (next < 0 || next >= play.positions.length) return false;
  finishTurn();
  // A cube turns the layer of the move played (forward) or undone (back), then shows the
  // position the server's replay gave.
  const move = delta > 0 ? play.moves[play.at] : play.moves[next];
  play.at = next;
  if (state.entry.view.shape === "cube" && Math.abs(delta) === 1 && animateTurn(move, delta < 0)) {
    const ms = Math.min(TURN_MS, 0.6 * 1000 / speed());
    turning.timer = setTimeout(finishTurn, ms);
    turning.layer.style.transition = `transform ${ms}ms ease-in-out`;
    // Start from the layer's place, so that the change of transform is animated.
    void turning.layer.getBoundingClientRect();
    turning.layer.style.transform = turning.to;
  } else {
    showStep();
  }
  return true;
}

// ---------- cube turns ----------

// How long a turn takes at most (it is shorter when the player's speed leaves less time).
const TURN_MS = 250;
const turning = { timer: null, layer: null, to: "" };

// Ends the turn under way, if any, drawing the position it leads to.
function finishTurn() {
  if (turning.timer === null) return;
  clearTimeout(turning.timer);
  turning.timer = null;
  turning.layer = null;
  showStep();
}

// Sets up the turn of `move` (a face letter U D F B R L, then nothing, 2 or '; `undo`: its
// inverse) in the 3D view: the stickers of the turning layer, found by where they are in
// space (the face's, and the row of each side face beside it), are copied into one layer that
// `turning.to` rotates about the face's axis; the originals are hidden until the position is
// drawn. False (nothing set up) for a move that is not a face turn, or with no 3D view.
function animateTurn(move, undo) {
  const parsed = /^([UDFBRL])(2|'|)$/.exec(move || "");
  const cube = document.querySelector("#cube3d .cube3d");
  if (!parsed || !cube) return false;
  const faces = Array.from(cube.querySelectorAll(".face3d"));
  const face = faces[FACE_ORDER.indexOf(parsed[1])];
  // The face's outward axis: where its centre lies, from the cube's centre.
  const half = face.offsetWidth / 2;
  const centre = new DOMMatrix(face.style.transform).transformPoint(new DOMPoint(0, 0, 0));
  const axis = [centre.x / half, centre.y / half, centre.z / half];
  const n = Math.round(Math.sqrt(face.children.length));
  // Stickers nearer the face than the next layer's are in the turning one.
  const threshold = half - (2 * half) / n + 1;
  const layer = document.createElement("div");
  layer.className = "layer3d";
  for (const f of faces) {
    const matrix = new DOMMatrix(f.style.transform);
    for (const sticker of f.children) {
      const x = sticker.offsetLeft + sticker.offsetWidth / 2 - half;
      const y = sticker.offsetTop + sticker.offsetHeight / 2 - half;
      const p = matrix.transformPoint(new DOMPoint(x, y, 0));
      if (p.x * axis[0] + p.y * axis[1] + p.z * axis[2] < threshold) continue;
      const copy = document.createElement("div");
      copy.className = "sticker3d";
      copy.style.left = `${sticker.offsetLeft}px`;
      copy.style.top = `${sticker.offsetTop}px`;
      copy.style.width = `${sticker.offsetWidth}px`;
      copy.style.height = `${sticker.offsetHeight}px`;
      copy.style.background = sticker.style.background;
      copy.style.transformOrigin = `${half - sticker.offsetLeft}px ${half - sticker.offsetTop}px`;
      copy.style.transform = f.style.transform;
      layer.appendChild(copy);
      sticker.style.visibility = "hidden";
    }
  }
  // Clockwise seen from outside the face: a positive turn about its outward axis.
  const quarters = parsed[2] === "2" ? 2 : parsed[2] === "'" ? -1 : 1;
  const angle = 90 * quarters * (undo ? -1 : 1);
  layer.style.transform = `rotate3d(${axis.join(",")}, 0deg)`;
  cube.appendChild(layer);
  turning.layer = layer;
  turning.to = `rotate3d(${axis.join(",")}, ${angle}deg)`;
  return true;
}

function speed() { return Number($("speed").value); }

function startPlay() {
  stopPlay();
  if (state.play.positions.length === 0) return;
  if (state.play.at === state.play.positions.length - 1) { state.play.at = 0; showStep(); }
  state.play.timer = setInterval(() => { if (!step(1)) stopPlay(); }, 1000 / speed());
}

function stopPlay() {
  if (state.play && state.play.timer) {
    clearInterval(state.play.timer);
    state.play.timer = null;
  }
}

// ---------- enumeration ----------

async function enumerate() {
  setError("bfs-error", "");
  if (state.bfsJob !== null) return;
  const request = { puzzle: state.puzzle };
  if (state.entry.metrics.length > 0) request.metric = $("metric").value;
  $("bfs").disabled = true;
  try {
    if (!(await takeGoal())) return;
    Object.assign(request, goalOption());
    request.max_depth = readNumber("bfs-depth");
    const doc = await runJob("bfs", request, (id) => {
      state.bfsJob = id;
      $("bfs-cancel").disabled = false;
    }, (p) => {
      $("bfs-progress").textContent = progressText(p);
      drawLevels(p.levels);
    });
    const report = doc.result;
    const end = report.complete ? `complete: diameter ${report.diameter}` : (report.stopped || "stopped");
    $("bfs-progress").textContent = `${report.total.toLocaleString()} positions in ${report.seconds.toFixed(2)} s (${report.engine} engine); ${end}`;
    drawLevels(report.levels);
  } catch (e) {
    if (e.message === "cancelled") $("bfs-progress").textContent = "cancelled";
    else setError("bfs-error", e.message);
  } finally {
    state.bfsJob = null;
    $("bfs").disabled = false;
    $("bfs-cancel").disabled = true;
  }
}

function drawLevels(levels) {
  state.levels = levels;
  const body = $("levels").tBodies[0];
  body.innerHTML = "";
  levels.forEach((count, depth) => {
    const row = body.insertRow();
    row.insertCell().textContent = String(depth);
    row.insertCell().textContent = count.toLocaleString();
  });
  const svg = $("chart");
  svg.innerHTML = "";
  if (levels.length === 0) return;
  const svgNs = "http://www.w3.org/2000/svg";
  // The chart's own units (its viewBox); the page scales it to the width it has.
  const width = 720, height = 290, left = 56, bottom = 44, top = 8;
  const text = (x, y, words, className) => {
    const label = document.createElementNS(svgNs, "text");
    label.setAttribute("x", x);
    label.setAttribute("y", y);
    if (className) label.setAttribute("class", className);
    label.textContent = words;
    svg.appendChild(label);
    return label;
  };
  const most = Math.max(...levels, 1);
  const decades = Math.max(1, Math.ceil(Math.log10(most)));
  // Log scale with half a decade below 1, so that a level of one position shows as a bar.
  const floor = 0.5;
  const y = (count) => height - bottom
    - (height - bottom - top) * (Math.log10(Math.max(count, 1)) + floor) / (decades + floor);
  for (let d = 0; d <= decades; d++) {
    const line = document.createElementNS(svgNs, "line");
    line.setAttribute("x1", left); line.setAttribute("x2", width);
    line.setAttribute("y1", y(10 ** d)); line.setAttribute("y2", y(10 ** d));
    line.setAttribute("stroke", "#ddd");
    svg.appendChild(line);
    text(left - 30, y(10 ** d) + 3, `1e${d}`);
  }
  const bar = (width - left) / levels.length;
  levels.forEach((count, depth) => {
    const rect = document.createElementNS(svgNs, "rect");
    rect.setAttribute("x", left + depth * bar + 1);
    rect.setAttribute("y", y(count));
    rect.setAttribute("width", Math.max(1, bar - 2));
    rect.setAttribute("height", height - bottom - y(count));
    rect.setAttribute("fill", "#4a7bd0");
    const title = document.createElementNS(svgNs, "title");
    title.textContent = `distance ${depth}: ${count.toLocaleString()} position${count === 1 ? "" : "s"}`;
    rect.appendChild(title);
    svg.appendChild(rect);
    if (levels.length <= 40 || depth % 5 === 0) text(left + depth * bar + bar / 2 - 3, height - bottom + 14, String(depth));
  });
  text(left + (width - left) / 2 - 90, height - 6, "distance from the goal (moves)", "axis");
  const yTitle = text(0, 0, "positions (log scale)", "axis");
  yTitle.setAttribute("transform", `translate(12, ${(height - bottom) / 2 + 55}) rotate(-90)`);
}

// ---------- export and share ----------

// Offers `text` as a file named `name` to download.
function download(name, type, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
function csvField(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(rows) { return rows.map((row) => row.map(csvField).join(",")).join("\n") + "\n"; }

// The runs as CSV: one line each, with the start position and the solution.
function runsCsv() {
  const columns = ["number", "puzzle", "goal", "start", "algorithm", "heuristic", "length", "optimal", "lower_bound",
    "timed_out", "nodes_expanded", "nodes_generated", "seconds", "memory_bytes", "solution"];
  const rows = state.runs.map((run) => {
    const r = run.result;
    return [run.number, r.puzzle, run.request.goal || "", run.start, r.algorithm || run.request.algorithm,
      r.heuristic || r.metric || r.method || "", r.length, r.optimal, r.lower_bound, r.timed_out,
      r.nodes_expanded, r.nodes_generated, r.seconds, r.memory_bytes, r.solution];
  });
  return csv([columns, ...rows]);
}

// Each run's request and the server's whole report, as the API gave them.
function runsJson() {
  return JSON.stringify(state.runs.map((run) => ({ number: run.number, request: run.request, result: run.result })), null, 2);
}

function levelsCsv() { return csv([["distance", "positions"], ...state.levels.map((count, depth) => [depth, count])]); }

function levelsJson() { return JSON.stringify({ puzzle: state.puzzle, levels: state.levels }, null, 2); }

// The page's state in its address (`#puzzle=...&position=...&runs=[...]`): the puzzle, the
// position and each run's request, so that a link opens the same puzzle and position and
// solves them again the same ways. A run stopped by Cancel (no timeout of its own) is left
// out: opened again it would start a search with no end.
function saveToUrl() {
  const params = new URLSearchParams();
  params.set("puzzle", state.puzzle);
  if (state.goalText !== "") params.set("goal", state.goalText);
  if (state.position !== "") params.set("position", state.position);
  const again = state.runs.filter((run) => !(run.result.timed_out && run.request.timeout === undefined));
  if (again.length > 0) params.set("runs", JSON.stringify(again.map((run) => run.request)));
  history.replaceState(null, "", `#${params.toString()}`);
}

// Adds a puzzle typed by name (4x5, pancake-12) to the menu when it is not there.
function ensurePuzzleOption(name) {
  const select = $("puzzle");
  if (![...select.options].some((o) => o.value === name)) select.add(new Option(name, name));
  select.value = name;
}

// Opens the state a link holds (see saveToUrl): the runs are solved again, in order, then the
// puzzle and position are shown, with the method's fields as the last run of that puzzle had
// them. False when the address holds none.
async function loadFromUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const puzzle = params.get("puzzle");
  if (!puzzle) return false;
  let runs = [];
  try { runs = JSON.parse(params.get("runs") || "[]"); } catch (e) { runs = []; }
  if (!Array.isArray(runs)) runs = [];
  const lastRun = new Map();
  for (const request of runs) {
    if (!request || typeof request.puzzle !== "string" || typeof request.position !== "string") continue;
    let entry;
    try { entry = await entryOf(request.puzzle); } catch (e) { continue; }
    ensurePuzzleOption(entry.name);
    setPuzzle(entry.name);
    fillAlgorithms();
    await runSolve(request);
    lastRun.set(entry.name, request);
  }
  let entry;
  try { entry = await entryOf(puzzle); } catch (e) { setError("error", e.message); return false; }
  ensurePuzzleOption(entry.name);
  if (entry.name !== state.puzzle || runs.length === 0) await choosePuzzle(entry.name);
  const goal = params.get("goal");
  if (goal !== null) {
    $("goal").value = goal;
    await setGoal();
  }
  const position = params.get("position");
  if (position !== null) {
    $("position").value = position;
    await setTyped();
  }
  if (lastRun.has(state.puzzle)) fillForm(lastRun.get(state.puzzle));
  return true;
}

// ---------- start ----------

async function start() {
  state.catalog = await api("/api/puzzles");
  const select = $("puzzle");
  for (const p of state.catalog.puzzles) select.add(new Option(p.name, p.name));
  for (const h of state.catalog.heuristics) $("heuristic").add(new Option(h, h));
  select.addEventListener("change", () => choosePuzzle(select.value));
  $("use-size").addEventListener("click", async () => {
    let entry;
    try { entry = await entryOf($("custom-size").value.trim()); } catch (e) { setError("error", e.message); return; }
    ensurePuzzleOption(entry.name);
    choosePuzzle(entry.name);
  });
  $("goal").addEventListener("change", setGoal);
  $("set-position").addEventListener("click", setTyped);
  $("position").addEventListener("keydown", (e) => { if (e.key === "Enter") setTyped(); });
  $("random").addEventListener("click", randomPosition);
  $("reset").addEventListener("click", resetPosition);
  $("view").addEventListener("keydown", arrowKey);
  $("solve").addEventListener("click", solve);
  $("algorithm").addEventListener("change", showOptions);
  $("optimal").addEventListener("change", showOptions);
  $("cancel").addEventListener("click", cancel);
  $("first").addEventListener("click", () => { stopPlay(); state.play.at = 0; showStep(); });
  $("back").addEventListener("click", () => { stopPlay(); step(-1); });
  $("step").addEventListener("click", () => { stopPlay(); step(1); });
  $("play").addEventListener("click", startPlay);
  $("pause").addEventListener("click", stopPlay);
  $("speed").addEventListener("input", () => {
    $("speed-value").textContent = $("speed").value;
    if (state.play.timer) startPlay();
  });
  $("bfs").addEventListener("click", enumerate);
  $("bfs-cancel").addEventListener("click", async () => {
    if (state.bfsJob !== null) await api(`/api/jobs/${state.bfsJob}`, undefined, "DELETE");
  });
  $("runs-csv").addEventListener("click", () => download("godsearch-runs.csv", "text/csv", runsCsv()));
  $("runs-json").addEventListener("click", () => download("godsearch-runs.json", "application/json", runsJson()));
  $("levels-csv").addEventListener("click", () => download(`godsearch-levels-${state.puzzle}.csv`, "text/csv", levelsCsv()));
  $("levels-json").addEventListener("click", () => download(`godsearch-levels-${state.puzzle}.json`, "application/json", levelsJson()));
  $("copy-link").addEventListener("click", async () => {
    saveToUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      $("copied").textContent = "copied";
    } catch (e) {
      $("copied").textContent = "the link is this page's address";
    }
  });
  if (!(await loadFromUrl())) {
    select.value = "3x3";
    choosePuzzle("3x3");
  }
}

start().catch((e) => setError("error", `could not reach the server: ${e.message}`));
