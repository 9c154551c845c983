// scopa's page: a thin face of the console that the room server runs for it (docs/web.md).
// It shows the lines the server sends, one element each, in one role="log" region, and sends keys and
// typed lines back. It has none of the game's words: they all come from the server, in the page's
// language. Every text is inserted with textContent, never as HTML.
"use strict";

(function () {
  const log = document.getElementById("log");
  const field = document.getElementById("command");
  const promptLabel = document.getElementById("prompt");
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

  function addLine(text, kind) {
    const line = document.createElement("p");
    line.textContent = text;
    if (kind) line.className = kind;
    log.appendChild(line);
    while (log.childElementCount > MAX_LINES) log.removeChild(log.firstElementChild);
    log.scrollTop = log.scrollHeight;
  }

  function speak(lines) {
    if (!voice.checked || !("speechSynthesis" in window)) return;
    for (const text of lines) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = langSelect.value === "it" ? "it-IT" : "en-GB";
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
      for (const text of lines) addLine(text);
      const spoken = lines.slice();
      if (typeof message.prompt === "string") {
        addLine(message.prompt, "prompt");
        promptLabel.textContent = message.prompt;
        textPrompt = message.text === true;
        spoken.push(message.prompt);
        showChoices(message.choices);
      }
      speak(spoken);
      retries = 0;
    } else if (message.type === "seat") {
      keep("seat", message.seat && typeof message.seat === "object" ? message.seat : null);
    } else if (message.type === "player_key" && typeof message.key === "string") {
      keep("player_key", message.key);
    } else if (message.type === "end") {
      ended = true;
    }
  }

  function connect() {
    ended = false;
    const address = new URL("web", window.location.href);
    address.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(address.href);
    socket.addEventListener("open", function () {
      status.textContent = "Connected.";
      send({ type: "start", lang: langSelect.value, verbosity: verbositySelect.value, code: roomFromAddress(),
             seat: saved("seat"), player_key: saved("player_key"), origin: base() });
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function () {
      socket = null;
      if (ended) {
        status.textContent = "Ended. Start again to play more.";
        addLine(status.textContent);
        return;
      }
      status.textContent = "Connection lost. Reconnecting.";
      addLine(status.textContent);
      retries += 1;
      window.setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retries, 5)));
    });
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
  });
  document.getElementById("restart").addEventListener("click", function () {
    if (socket) socket.close();
    log.replaceChildren();
    connect();
    field.focus();
  });
  langSelect.value = saved("lang") || ((navigator.language || "en").slice(0, 2) === "it" ? "it" : "en");
  verbositySelect.value = saved("verbosity") || "short";
  langSelect.addEventListener("change", function () { keep("lang", langSelect.value); document.documentElement.lang = langSelect.value; });
  verbositySelect.addEventListener("change", function () { keep("verbosity", verbositySelect.value); });
  voice.addEventListener("change", function () { if (!voice.checked) stopVoice(); });
  document.documentElement.lang = langSelect.value;
  connect();
  field.focus();
})();
