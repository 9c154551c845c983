// scopa's page: a thin face of the console that the room server runs for it (docs/web.md).
// It shows the lines the server sends, one element each, in one role="log" region, and sends keys and
// typed lines back. It has none of the game's words: they all come from the server, in the player's
// language. Its own few words (labels, headings, the connection's status) are below in English and
// Italian, and follow the language the server says the game speaks. Every text is inserted with
// textContent, never as HTML.
"use strict";

(function () {
  const log = document.getElementById("log");
  const field = document.getElementById("command");
  const promptShown = document.getElementById("prompt");
  const status = document.getElementById("status");
  const choices = document.getElementById("choices");
  const voice = document.getElementById("voice");
  const langSelect = document.getElementById("lang");
  const verbositySelect = document.getElementById("verbosity");
  const SINGLE = /^[0-9a-zA-Z?.,]$/;
  const MAX_LINES = 2000;
  const store = window.localStorage;  // this origin's only: the seat key is this server's alone
  let socket = null;
  let textPrompt = false;
  let ended = false;
  let retries = 0;

  // The page's own words, in Italian; the English are those of index.html, read from it at the start. An
  // element marked data-words="name" shows the word of that name in the language the game speaks.
  const ITALIAN = {
    connecting: "Connessione in corso.", connected: "Connesso.",
    ended: "Finito. Ricomincia per giocare ancora.", lost: "Connessione persa. Riconnessione in corso.",
    log: "Cosa è stato detto", command: "Comando",
    help: "I tasti agiscono subito. I numeri scelgono, Invio gioca, Esc annulla, punto di domanda per l'aiuto. " +
          "Scrivi i due punti per dare un comando.",
    choices: "Scelte", keys: "Tasti", options: "Opzioni della pagina", language: "Lingua", verbosity: "Annunci",
    brief: "minimi", short: "brevi", full: "completi",
    voice: "Leggi ad alta voce con la voce di questo browser (per chi gioca senza lettore di schermo)",
    restart: "Ricomincia", save: "Salva la partita giocata",
    "key enter": "Invio", "key escape": "Esc", "key t": "T, tavolo", "key h": "H, le tue carte",
    "key l": "L, ultime giocate", "key s": "S, punteggio", "key p": "P, le tue prese", "key b": "B, ultima smazzata",
    "key r": "R, ripeti", "key x": "X, ferma la voce", "key c": "C, chat", "key m": "M, più tempo",
    "key a": "A, annunci", "key ?": "Punto di domanda, aiuto", "key q": "Q, lascia la stanza",
  };
  const ENGLISH = { connected: "Connected.", ended: "Ended. Start again to play more.",
                    lost: "Connection lost. Reconnecting." };
  for (const element of document.querySelectorAll("[data-words]")) ENGLISH[element.dataset.words] = element.textContent;
  let spoken = "en";  // the language the game speaks, as the server last said (before: the one asked for)
  function word(name) { return (spoken === "it" ? ITALIAN : ENGLISH)[name] || ENGLISH[name] || name; }
  function showWords() {  // set only what differs: a text set again is a change a screen reader may say
    document.documentElement.lang = spoken;
    for (const element of document.querySelectorAll("[data-words]")) {
      const shown = word(element.dataset.words);
      if (element.textContent !== shown) element.textContent = shown;
    }
  }
  function setStatus(name) {  // the connection's state, a word of the page's own
    status.dataset.words = name;
    status.textContent = word(name);
    return status.textContent;
  }

  function saved(name) {
    try { return JSON.parse(store.getItem("scopa." + name)); } catch (e) { return null; }
  }
  function keep(name, value) {
    try {
      if (value === null) store.removeItem("scopa." + name); else store.setItem("scopa." + name, JSON.stringify(value));
    } catch (e) { /* storage refused (private mode): the seat is not kept for a reload */ }
  }

  function roomFromAddress() {
    const last = window.location.pathname.split("/").pop();
    return /^[A-Za-z0-9-]{4,12}$/.test(last) && last !== "web" ? last : null;
  }

  function base() {  // the server's address as this page reached it, without the room code
    const path = window.location.pathname.replace(/[^/]*$/, "");
    return window.location.origin + path.replace(/\/$/, "");
  }

  // One announcement (the lines of one step, and the prompt after them) is one paragraph of the log, its
  // lines separated by line breaks: a screen reader is told of one addition and reads it whole, in order.
  // Added as a paragraph a line, Orca read the lines of one step in another order.
  function addLines(lines, prompt) {
    const all = prompt ? lines.concat([prompt]) : lines;
    if (!all.length) return;
    const said = document.createElement("p");
    said.lang = spoken;  // lines said before a change of language keep the voice of theirs
    all.forEach(function (text, index) {
      if (index) said.appendChild(document.createElement("br"));
      said.appendChild(document.createTextNode(text));
    });
    log.appendChild(said);
    while (log.childElementCount > MAX_LINES) log.removeChild(log.firstElementChild);
    log.scrollTop = log.scrollHeight;
  }
  function addLine(text) {  // a line of the page's own (its shuffle check, the connection): after what is held
    held.push(text);
    if (holding === null) holding = window.setTimeout(function () { flush(null); }, HOLD);
  }

  function speak(lines) {
    if (!voice.checked || !("speechSynthesis" in window)) return;
    for (const text of lines) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = spoken === "it" ? "it-IT" : "en-GB";
      window.speechSynthesis.speak(utterance);
    }
  }

  function stopVoice() {
    if ("speechSynthesis" in window) window.speechSynthesis.cancel();
  }

  // The buttons the server gives with a prompt (the hand's cards at Card?, a menu's items), by their
  // full names, for touch screens and for anyone who prefers them.
  function showChoices(items) {
    choices.replaceChildren();
    for (const item of Array.isArray(items) ? items : []) {
      if (!item || typeof item.key !== "string" || typeof item.label !== "string") continue;
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.key = item.key;
      button.textContent = item.label;
      choices.appendChild(button);
    }
  }


  // The shuffle, checked in this page with WebCrypto, as docs/fairness.md describes it: the server's seed
  // against the commitment heard before the match, this page's own share among the shares, the shares from
  // the human seats only and exactly those shown at the start, the match seed made of them, and the first
  // table and every hand this seat was dealt, dealt again from that seed.
  const RANKS = "A234567JQK";
  const SUITS = "DHSC";
  const text = new TextEncoder();
  function hex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
  function unhex(value) {
    const bytes = new Uint8Array(value.length / 2);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(value.substr(2 * i, 2), 16);
    return bytes;
  }
  function joined(parts) {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) { all.set(part, at); at += part.length; }
    return all;
  }
  function be4(n) { return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]); }
  function cardName(card) { return RANKS[card >> 2] + SUITS[card & 3]; }
  async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }
  async function shareOf(nonce, commitment) {  // SHA-256("scopa share" || 0 || nonce || commitment heard)
    return hex(await sha256(joined([text.encode("scopa share"), new Uint8Array([0]), unhex(nonce), unhex(commitment)])));
  }

  function byteStream(key, label, number) {  // HMAC-SHA256(seed, label || 0 || number || counter), block by block
    let counter = 0, block = new Uint8Array(0), at = 0;
    return async function () {
      if (at >= block.length) {
        const message = joined([text.encode(label), new Uint8Array([0]), be4(number), be4(counter)]);
        block = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
        counter += 1;
        at = 0;
      }
      return block[at++];
    };
  }
  async function upTo(next, n) {  // 0 to n, masked to n's bits, thrown away while above n: no modulo
    const mask = (1 << n.toString(2).length) - 1;
    for (;;) { const b = (await next()) & mask; if (b <= n) return b; }
  }
  async function deckOrders(key, deal, count) {  // the deck, then each reshuffle for kings, reading on
    const next = byteStream(key, "deal", deal);
    const deck = Array.from({ length: 40 }, (_, i) => i);
    const orders = [];
    for (let k = 0; k < count; k += 1) {
      for (let i = 39; i >= 1; i -= 1) {
        const j = await upTo(next, i);
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
      orders.push(deck.slice());
    }
    return orders;
  }
  function same(cards, names) { return cards.map(cardName).sort().join(" ") === names.slice().sort().join(" "); }

  async function dealsSeen(seed, facts) {
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const rules = facts.deal, seen = facts.seen, dealers = {}, tables = {}, hands = [];
    for (const o of seen) {
      if (o[0] === "dealer") dealers[o[1]] = o[2];
      else if (o[0] === "table") tables[o[1]] = o[2];
      else if (o[0] === "hand") hands.push(o);
    }
    const decks = {};
    for (const deal of new Set([...Object.keys(tables), ...hands.map((h) => String(h[1]))])) {
      const orders = await deckOrders(key, Number(deal), 8);
      let chosen = 0;
      if (tables[deal] !== undefined && rules.table_size > 0) {
        chosen = orders.findIndex((o) => same(o.slice(0, rules.table_size), tables[deal]));
        if (chosen < 0) return false;
        const kings = (o) => o.slice(0, rules.table_size).filter((c) => c >= 36).length;
        if (orders.slice(0, chosen).some((o) => !rules.kings_redeal || kings(o) < 3)) return false;
      }
      decks[deal] = orders[chosen];
    }
    const n = rules.players, size = rules.hand_size;
    for (const [, deal, round, cards] of hands) {
      if (dealers[deal] === undefined) continue;  // a seat taken back mid-deal: its dealer was not heard
      const stock = decks[String(deal)].slice(rules.table_size);
      const dealt = stock.slice((round - 1) * n * size, round * n * size);
      const leader = (dealers[deal] - 1 + n) % n, k = (leader - facts.seat + n) % n;
      if (!same(dealt.slice(k * size, (k + 1) * size), cards)) return false;
    }
    return true;
  }

  // The shares used come from the human seats only, one each (none in a daily deal), and are exactly those
  // the room's info showed this seat when the match started, no later info showing others (the console's
  // check, storage/fairness.py): a server cannot add a share of its own for a computer's seat, ground after
  // seeing the others, nor drop or replace one after showing it.
  function sharesVerdict(facts, contributions) {
    const seats = Array.isArray(facts.record.seats) ? facts.record.seats : [];
    const humans = [];
    seats.forEach((s, n) => { if (s && s.kind === "human") humans.push(n); });
    const given = contributions.map((c) => c.seat);
    if (new Set(given).size !== given.length || !given.every((s) => humans.includes(s))) return "computer_share";
    if (given.length !== (facts.daily ? 0 : humans.length)) return "shares";
    const shown = facts.shown;
    if (!shown || shown.changed !== false || !Array.isArray(shown.shares) || !Array.isArray(shown.humans)) {
      return "shares";
    }
    const byNumber = (a, b) => a - b;
    if (shown.humans.slice().sort(byNumber).join(" ") !== humans.join(" ")) return "shares";
    const used = contributions.map((c) => c.seat + " " + c.value).join(",");
    const showed = [];
    shown.shares.forEach((value, seat) => { if (typeof value === "string") showed.push(seat + " " + value); });
    return used === showed.join(",") ? "fair" : "shares";
  }

  async function checkShuffle(facts) {
    const fairness = facts.record && facts.record.fairness;
    if (!fairness || typeof fairness.server_seed !== "string") return "missing";
    const serverSeed = unhex(fairness.server_seed);
    const kept = checking || {};  // what this page heard and gave, kept with the seat key
    const commitment = kept.commitment || facts.commitment;
    if (!commitment || hex(await sha256(serverSeed)) !== commitment) return "commitment";
    const contributions = (fairness.contributions || []).slice().sort((a, b) => a.seat - b.seat);
    const nonce = kept.nonce || facts.nonce;  // this page's secret; its share is bound to the commitment heard
    const share = nonce ? await shareOf(nonce, commitment) : null;
    if (!facts.daily && (!share || !contributions.some((c) => c.seat === facts.seat && c.value === share))) {
      return "contribution";
    }
    const shares = sharesVerdict(facts, contributions);
    if (shares !== "fair") return shares;
    for (const told of Array.isArray(facts.nonces) ? facts.nonces : []) {  // every seat heard the same promise
      if (await shareOf(told.nonce, commitment) !== told.value) return "other_commitment";
    }
    const parts = [text.encode("scopa match seed"), new Uint8Array([0]), serverSeed];
    for (const c of contributions) parts.push(new Uint8Array([c.seat]), unhex(c.value));
    const seed = await sha256(joined(parts));
    if (hex(seed) !== facts.record.seed) return "seed";
    return (await dealsSeen(seed, facts)) ? "fair" : "deals";
  }

  // The check, open to anyone who wants to run it again from the browser's console (and to the tests).
  window.scopaFairness = Object.freeze({
    check: checkShuffle,
    deck: async function (seedHex, deal) {
      const key = await crypto.subtle.importKey("raw", unhex(seedHex), { name: "HMAC", hash: "SHA-256" }, false,
                                                ["sign"]);
      return (await deckOrders(key, deal, 1))[0];
    },
    last: function () { return lastCheck; },
  });
  let lastCheck = null;
  let record = null;
  let checking = null;  // the seat's commitment and nonce, as the page kept them for the match checked now
  function onCheck(message) {
    checking = saved("seat");
    lastCheck = message;
    record = message.record;
    document.getElementById("save-record").hidden = false;
    checkShuffle(message).then(function (verdict) {
      const line = message.words && message.words[verdict];
      if (typeof line === "string") addLine(line);
    }, function () {
      const line = message.words && message.words.deals;
      if (typeof line === "string") addLine(line);
    });
  }
  document.getElementById("save-record").addEventListener("click", function () {
    if (!record) return;
    const file = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = "scopa-match.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
  });

  function newShare() {  // 32 bytes of the browser's own randomness: the page's secret for a room's share
    return hex(window.crypto.getRandomValues(new Uint8Array(32)));
  }

  // What comes in together is said together: the lines of several messages that arrive before the next
  // prompt (a play, the table after it, the new turn) become one paragraph of the log. Orca read
  // paragraphs added in quick succession out of order (the newest first); one addition is read in order.
  const HOLD = 250;  // ms a line waits for more, when no prompt comes with it
  let held = [];
  let holding = null;
  function flush(prompt) {
    if (holding !== null) { window.clearTimeout(holding); holding = null; }
    const lines = held;
    held = [];
    addLines(lines, prompt);
    speak(prompt ? lines.concat([prompt]) : lines);
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function sendKey(key) {
    if (key === "x") stopVoice();
    send({ type: "key", key: key });
  }

  function onMessage(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "say") {
      const lines = Array.isArray(message.lines) ? message.lines.filter((l) => typeof l === "string") : [];
      const prompt = typeof message.prompt === "string" ? message.prompt : null;
      held.push(...lines);
      if (prompt) {
        delete promptShown.dataset.words;  // the game's words from now on
        promptShown.textContent = prompt;  // for the eyes; the field's name stays, so it is not said again
        textPrompt = message.text === true;
        showChoices(message.choices);
        flush(prompt);
      } else if (holding === null) {
        holding = window.setTimeout(function () { flush(null); }, HOLD);
      }
      retries = 0;
    } else if (message.type === "seat") {
      const seat = message.seat && typeof message.seat === "object" ? message.seat : null;
      const heard = saved("heard");  // the commitment and the nonce given under it, kept with the seat key
      if (seat && heard && !saved("seat")) { seat.commitment = heard.commitment; seat.nonce = heard.nonce; }
      else if (seat && saved("seat") && saved("seat").code === seat.code) {
        seat.commitment = saved("seat").commitment; seat.nonce = saved("seat").nonce;
      }
      keep("seat", seat);
      keep("heard", null);
    } else if (message.type === "commitment" && /^[0-9a-f]{64}$/.test(message.value)) {
      const nonce = newShare();
      keep("heard", { commitment: message.value, nonce: nonce });
      send({ type: "share", value: nonce });
    } else if (message.type === "check") {
      onCheck(message);
    } else if (message.type === "player_key" && typeof message.key === "string") {
      keep("player_key", message.key);
    } else if (message.type === "end") {
      ended = true;
    } else if (message.type === "language" && (message.lang === "en" || message.lang === "it")) {
      speakIn(message.lang);
    }
  }

  // The language the game speaks, as the server says it (at the start, and when the player changes it in
  // the game's settings): the page's own words, the html element's lang (a screen reader's voice) and the
  // language chosen for the next start all follow it.
  function speakIn(lang) {
    spoken = lang;
    if (langSelect.value !== lang) langSelect.value = lang;
    keep("lang", lang);
    showWords();
  }

  function connect() {
    ended = false;
    const address = new URL("web", window.location.href);
    address.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(address.href);
    socket = ws;
    ws.addEventListener("open", function () {
      setStatus("connected");
      send({ type: "start", lang: langSelect.value, verbosity: verbositySelect.value, code: roomFromAddress(),
             seat: saved("seat"), player_key: saved("player_key"), origin: base() });
    });
    ws.addEventListener("message", function (event) { if (socket === ws) onMessage(event); });
    ws.addEventListener("close", function () {
      if (socket !== ws) return;  // a connection the page closed itself to start again: the new one goes on
      socket = null;
      if (ended) {
        addLine(setStatus("ended"));
        return;
      }
      addLine(setStatus("lost"));
      retries += 1;
      window.setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retries, 5)));
    });
  }
  function startAgain() {  // a new session; a seat kept is taken back (docs/web.md)
    const old = socket;
    socket = null;
    if (old) old.close();
    connect();
  }

  field.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
    const typed = field.value;
    if (event.key === "Enter") {
      event.preventDefault();
      field.value = "";
      if (typed.trim()) send({ type: "line", text: typed }); else sendKey("enter");
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (typed && !textPrompt) field.value = ""; else { field.value = ""; sendKey("escape"); }
    } else if (!textPrompt && typed === "" && SINGLE.test(event.key)) {
      event.preventDefault();  // a key acts at once, as in the console; a colon first starts a typed command
      sendKey(event.key.toLowerCase());
    }
  });
  document.getElementById("command-form").addEventListener("submit", function (event) { event.preventDefault(); });

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-key]");
    if (!button) return;
    sendKey(button.dataset.key);
    field.focus();  // back to the one field: a choice's button goes with its prompt, and focus with it
  });
  document.getElementById("restart").addEventListener("click", function () {
    log.replaceChildren();
    startAgain();
    field.focus();
  });
  // set only when it differs from the page's own choice: a value set is a change a screen reader may say
  const lang = saved("lang") || ((navigator.language || "en").slice(0, 2) === "it" ? "it" : "en");
  if (langSelect.value !== lang) langSelect.value = lang;
  const words = saved("verbosity") || "short";
  if (verbositySelect.value !== words) verbositySelect.value = words;
  // Another language chosen here: the console starts again in it (a seat kept is taken back, mid-match
  // too), and says so in its words; the page's follow when the server says the game speaks it.
  langSelect.addEventListener("change", function () { keep("lang", langSelect.value); startAgain(); });
  verbositySelect.addEventListener("change", function () { keep("verbosity", verbositySelect.value); });
  voice.addEventListener("change", function () { if (!voice.checked) stopVoice(); });
  spoken = lang;  // what the page asks for, until the server says
  showWords();
  connect();
  field.focus();
})();
