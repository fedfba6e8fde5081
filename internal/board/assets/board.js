// ictal ward board: follows /events (Server-Sent Events) and draws the
// beds and alerts; Acknowledge, Confirm, Reject and "Seizure missed here"
// POST to the board with the session's CSRF token. Plain JavaScript, no
// build step; text goes through textContent only.
"use strict";
(() => {
  const S = { site: "", user: "", csrf: "", connected: false, beds: new Map(), alerts: new Map(), evidence: new Map() };
  // Test and measurement hooks: when each alert reached the page (Date.now()).
  // shown: each tile state drawn, "bed state since"; artifactHoldWall: see setStatus.
  window.__board = { received: {}, events: 0, shown: [], artifactHoldWall: 5000 };
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const hms = (t) => t ? new Date(t).toLocaleTimeString([], { hour12: false }) : "–";
  const parse = (t) => (t ? Date.parse(t) : NaN);

  async function post(path, fields) {
    const r = await fetch(path, { method: "POST", body: new URLSearchParams(fields), headers: { "X-CSRF-Token": S.csrf }, credentials: "same-origin" });
    if (r.status === 401) { location.href = "/login"; throw new Error("logged out"); }
    if (!r.ok) { let m = "HTTP " + r.status; try { m = (await r.json()).error; } catch (e) { } throw new Error(m); }
    return r.status === 204 ? null : r.json();
  }

  // ---- sound: a beep every 2 s while an alert rings (where the browser allows) ----
  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") { $("sound").hidden = false; return; }
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.2; o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.25);
    } catch (e) { /* no audio here */ }
  }
  $("sound").addEventListener("click", () => { if (audio) audio.resume(); $("sound").hidden = true; });
  document.addEventListener("click", () => { if (audio && audio.state === "suspended") audio.resume(); });
  setInterval(() => { for (const a of S.alerts.values()) if (ringing(a)) { beep(); return; } }, 2000);

  const ringing = (a) => a.alert && !a.acked_at;

  // ---- beds ----
  function bedOf(name) {
    let b = S.beds.get(name);
    if (!b) { b = { bed: name, scores: [], status: null, last_alert: null }; S.beds.set(name, b); }
    return b;
  }
  function tile(b) {
    let t = document.querySelector(`.tile[data-bed="${b.bed}"]`);
    if (!t) {
      t = el("div", "tile"); t.dataset.bed = b.bed;
      const h = el("h3"); h.append(el("span", "name", b.bed), el("span", "state"));
      const c = el("canvas"); c.width = 300; c.height = 70;
      const last = el("div", "last");
      const miss = el("button", "miss", "Seizure missed here");
      const form = missedForm(b.bed);
      miss.addEventListener("click", () => { form.hidden = !form.hidden; if (!form.hidden) form.reset(); });
      t.append(h, c, last, miss, form);
      const tiles = [...$("beds").children];
      const after = tiles.find((x) => x.dataset.bed > b.bed);
      $("beds").insertBefore(t, after || null);
    }
    return t;
  }
  // Artifacts (blinks, movement, muscle) come and go every few seconds in
  // an awake patient: a tile that showed each at once would flicker, and
  // its "online since" would restart with every blink. A bed shown online
  // therefore shows an artifact only once it has lasted ARTIFACT_HOLD: of
  // the bed's own signal time, by the clock of its scores (a recording
  // replayed faster than real time), or of this page's clock
  // (window.__board.artifactHoldWall; the monitor publishes scores only
  // with mqtt.scores on). One that ends sooner leaves the tile as it was.
  // Every other change shows at once.
  const ARTIFACT_HOLD = 5000;
  function setStatus(b, st) {
    b.status = st;
    const shown = b.shown || {};
    if (st.state === "artifact" && st.artifact !== "settling" && (shown.state === "online" || b.pending)) {
      if (!b.pending) {
        const p = b.pending = { since: parse(st.since) };
        setTimeout(() => { if (b.pending === p) showPending(b); }, window.__board.artifactHoldWall);
      }
      return;
    }
    if (st.state === "online" && b.pending) { b.pending = null; return; }
    b.pending = null; b.shown = st; drawBed(b);
  }
  function showPending(b) { b.pending = null; b.shown = b.status; drawBed(b); }
  // heldArtifact shows a bed's pending artifact once it has lasted
  // ARTIFACT_HOLD by the score of time t.
  function heldArtifact(b, t) {
    if (b.pending && t - b.pending.since >= ARTIFACT_HOLD) showPending(b);
  }
  function drawBed(b) {
    const t = tile(b), st = b.shown || b.status || {};
    const state = st.state || "unknown";
    const seen = `${b.bed} ${state} ${st.since || ""}`, log = window.__board.shown;
    if (log[log.length - 1] !== seen && log.push(seen) > 100) log.shift();
    t.className = "tile st-" + state;
    let label = state === "artifact" ? (st.artifact === "settling" ? "settling (warming up)" : "artifact: " + st.artifact) : state;
    if (st.channels && st.channels.length) label += " on " + st.channels.join(", ");
    if (st.since) label += " since " + hms(st.since);
    // Whether the bed is still monitored: a per-channel model goes on
    // scoring the channels a lead-off, flat line or blink leaves.
    if (state === "signal-lost" || state === "electrode-off" || state === "artifact" && st.artifact !== "settling")
      label += st.scored ? ` — monitoring the other ${st.scored} channels` : " — not monitoring";
    t.querySelector(".state").textContent = label;
    t.querySelector(".last").textContent = "Last alert: " + (b.last_alert ? hms(b.last_alert) : "none");
    drawScores(t.querySelector("canvas"), b.scores);
  }
  function drawScores(c, pts) {
    if (c.clientWidth && c.width !== c.clientWidth) c.width = c.clientWidth; // crisp at any tile width
    const g = c.getContext("2d"), W = c.width, H = c.height;
    g.fillStyle = "#fff"; g.fillRect(0, 0, W, H);
    g.strokeStyle = "#ddd"; g.beginPath(); g.moveTo(0, H / 2); g.lineTo(W, H / 2); g.stroke();
    g.fillStyle = "#777"; g.font = "10px sans-serif"; g.fillText("score, last 10 min", 4, 10);
    if (!pts.length) return;
    const t1 = pts[pts.length - 1][0], t0 = t1 - 600000;
    g.strokeStyle = "#1d3557"; g.lineWidth = 1.5; g.beginPath();
    pts.forEach(([t, s], i) => { const x = (t - t0) / 600000 * W, y = H - 2 - s * (H - 4); i ? g.lineTo(x, y) : g.moveTo(x, y); });
    g.stroke();
  }
  function missedForm(bed) {
    const f = el("form", "missed"); f.hidden = true;
    const start = el("input"), end = el("input"), label = el("select"), send = el("button", "send", "Send label"), msg = el("span", "msg");
    start.type = end.type = "datetime-local"; start.step = end.step = 1; start.name = "start"; end.name = "end";
    for (const l of ["seizure", "non-seizure"]) { const o = el("option", "", l); o.value = l; label.append(o); }
    const local = (ms) => { const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000); return d.toISOString().slice(0, 19); };
    f.reset = () => {
      const b = S.beds.get(bed), last = b && b.scores.length ? b.scores[b.scores.length - 1][0] : Date.now();
      end.value = local(Math.min(last, Date.now())); start.value = local(Math.min(last, Date.now()) - 120000); msg.textContent = "";
    };
    f.append("From", start, "to", end, label, send, msg);
    f.addEventListener("submit", async (e) => {
      e.preventDefault(); msg.textContent = "sending…"; msg.className = "msg";
      try {
        await post("/feedback", { bed, start: new Date(start.value).toISOString(), end: new Date(end.value).toISOString(), label: label.value });
        msg.textContent = "sent";
      } catch (err) { msg.textContent = err.message; msg.className = "msg err"; }
    });
    return f;
  }

  // ---- alerts ----
  function entry(id, bed) {
    let a = S.alerts.get(id);
    if (!a) { a = { id, bed, alert: null, end: null, has_evidence: false, feedback: [], acks: [], received: new Date().toISOString() }; S.alerts.set(id, a); }
    return a;
  }
  const when = (a) => parse(a.alert && a.alert.detected_at) || parse(a.received);
  // An alert's kind (its payload's optional "kind", absent for the default,
  // an electrographic seizure) in the words a nurse reads on the card. The
  // board forwards only kinds of the contract (alert.ParseAlert).
  const KIND_WORDS = new Map([["seizure", "seizure"], ["motor", "motor seizure (convulsive)"],
    ["status-epilepticus", "status epilepticus (seizure lasting 5 min or more)"]]);
  const kindWords = (k) => KIND_WORDS.get(k || "seizure") || `${k} (kind unknown to this board)`;
  function card(a) {
    let c = document.querySelector(`.alert[data-id="${a.id}"]`);
    if (!c) {
      c = el("article", "alert"); c.dataset.id = a.id;
      const list = $("alert-list"), mine = when(a);
      const after = [...list.children].find((x) => when(S.alerts.get(x.dataset.id)) < mine);
      list.insertBefore(c, after || null);
      $("no-alerts").hidden = true;
    }
    return c;
  }
  function drawAlert(a) {
    const c = card(a), al = a.alert || {};
    c.classList.toggle("ringing", ringing(a));
    c.dataset.ringing = ringing(a);
    c.dataset.kind = al.kind || "seizure";
    c.replaceChildren();
    c.append(el("div", "head", `${a.bed} — ${kindWords(al.kind)} alert, detected ${hms(al.detected_at)}`));
    if (a.alert) c.append(el("div", "meta", `onset ${hms(al.onset)} · score ${Number(al.score).toFixed(2)} · ${al.algorithm || "?"} · channels ${(al.channels || []).join(", ") || "–"}`));
    else c.append(el("div", "meta", "evidence received before its alert"));
    if (a.end) c.append(el("div", "meta end", `ended ${hms(a.end.end)}`));
    c.append(el("div", "acked", a.acked_at ? `Acknowledged by ${a.acked_by} at ${hms(a.acked_at)}` : "RINGING — not acknowledged"));
    const bs = el("div", "buttons"), msg = el("span", "msg");
    if (!a.acked_at) bs.append(button("ack", "Acknowledge", () => post("/acknowledge", { alert_id: a.id }), msg));
    bs.append(button("confirm", "Confirm", () => post("/feedback", { alert_id: a.id, verdict: "confirmed" }).then(() => { msg.textContent = "confirmation sent"; }), msg));
    bs.append(button("reject", "Reject", () => post("/feedback", { alert_id: a.id, verdict: "rejected" }).then(() => { msg.textContent = "rejection sent"; }), msg));
    bs.append(msg);
    c.append(bs);
    if (a.feedback.length) { const ul = el("ul", "fb"); for (const f of a.feedback) ul.append(el("li", "", `${f.verdict} by ${f.by || "?"}`)); c.append(ul); }
    if (a.acks.length) {
      const ul = el("ul", "acks");
      for (const k of a.acks) ul.append(el("li", k.status, `monitor: ${k.status} ${k.verdict || k.label || ""}${k.by ? " from " + k.by : ""} — ${k.windows} windows${k.reason ? " (" + k.reason + ")" : ""}${k.note ? "; " + k.note : ""}`));
      c.append(ul);
    }
    const cv = el("canvas", "eeg"); cv.width = 900; cv.height = 120;
    c.append(cv);
    if (a.has_evidence) evidenceObserver.observe(cv); else { const g = cv.getContext("2d"); g.fillStyle = "#777"; g.font = "13px sans-serif"; g.fillText("EEG evidence not received yet (it follows the alert by about 10 s)", 10, 60); }
  }
  function button(cls, text, fn, msg) {
    const b = el("button", cls, text); b.type = "button";
    b.addEventListener("click", async () => { b.disabled = true; msg.className = "msg"; try { await fn(); } catch (e) { msg.textContent = e.message; msg.className = "msg err"; } finally { b.disabled = false; } });
    return b;
  }
  const evidenceObserver = new IntersectionObserver((es) => {
    for (const e of es) if (e.isIntersecting) { evidenceObserver.unobserve(e.target); showEvidence(e.target); }
  });
  async function showEvidence(cv) {
    const id = cv.closest(".alert").dataset.id;
    let ev = S.evidence.get(id);
    if (!ev) {
      const r = await fetch("/evidence?alert_id=" + encodeURIComponent(id), { credentials: "same-origin" });
      if (!r.ok) return;
      ev = await r.json(); S.evidence.set(id, ev);
    }
    drawEEG(cv, ev);
  }

  // ---- EEG evidence: stacked traces, µV scale bar, seconds axis, onset and detection ----
  function decode(b64, scale) {
    const s = atob(b64), n = s.length >> 1, out = new Float32Array(n);
    for (let i = 0; i < n; i++) { let v = s.charCodeAt(2 * i) | (s.charCodeAt(2 * i + 1) << 8); if (v & 0x8000) v -= 0x10000; out[i] = v * scale; }
    return out;
  }
  function niceUV(x) { for (const v of [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]) if (v >= x) return v; return 10000; }
  function drawEEG(cv, ev) {
    const chans = ev.data.map((d, i) => decode(d, ev.scale[i])), n = chans[0].length, rate = ev.rate;
    const L = 70, R = 60, T = 16, B = 28, row = 60;
    cv.height = T + B + row * chans.length;
    const W = cv.width, g = cv.getContext("2d"), pw = W - L - R, secs = n / rate;
    g.fillStyle = "#fff"; g.fillRect(0, 0, W, cv.height);
    // common gain: the 98th percentile of |x| over all channels fills half a row
    const mags = []; for (const c of chans) for (let i = 0; i < c.length; i += Math.max(1, c.length >> 9)) mags.push(Math.abs(c[i]));
    mags.sort((a, b) => a - b);
    const p98 = mags[Math.floor(mags.length * 0.98)] || 1, bar = niceUV(p98), pxPerUV = (row * 0.45) / bar;
    const x = (t) => L + t / secs * pw;
    // marks: onset and detection
    const t0 = parse(ev.start);
    for (const [t, col, name] of [[parse(ev.onset), "#d00", "onset"], [parse(ev.detected_at), "#e67e00", "detection"]]) {
      const s = (t - t0) / 1000; if (!(s >= 0 && s <= secs)) continue;
      g.strokeStyle = col; g.setLineDash([4, 3]); g.beginPath(); g.moveTo(x(s), T - 4); g.lineTo(x(s), cv.height - B); g.stroke(); g.setLineDash([]);
      g.fillStyle = col; g.font = "11px sans-serif"; g.fillText(name, x(s) + 3, T - 4);
    }
    // traces: min/max per pixel column
    g.strokeStyle = "#111"; g.lineWidth = 1; g.font = "12px sans-serif";
    chans.forEach((c, k) => {
      const y0 = T + row * k + row / 2;
      g.fillStyle = "#111"; g.fillText(ev.channels[k], 4, y0 + 4);
      g.beginPath();
      const per = n / pw;
      for (let px = 0; px < pw; px++) {
        const a = Math.floor(px * per), b = Math.max(a + 1, Math.floor((px + 1) * per));
        let lo = Infinity, hi = -Infinity; for (let i = a; i < b && i < n; i++) { lo = Math.min(lo, c[i]); hi = Math.max(hi, c[i]); }
        if (lo === Infinity) continue;
        const yl = y0 - Math.max(-row / 2, Math.min(row / 2, lo * pxPerUV)), yh = y0 - Math.max(-row / 2, Math.min(row / 2, hi * pxPerUV));
        if (px === 0) g.moveTo(L + px, yl); g.lineTo(L + px, yl); g.lineTo(L + px, yh);
      }
      g.stroke();
    });
    // scale bar
    const bx = W - R + 20, by = T + row / 2;
    g.strokeStyle = "#111"; g.lineWidth = 2; g.beginPath(); g.moveTo(bx, by - bar * pxPerUV / 2); g.lineTo(bx, by + bar * pxPerUV / 2); g.stroke();
    g.fillStyle = "#111"; g.font = "11px sans-serif"; g.fillText(bar + " µV", bx - 16, by + bar * pxPerUV / 2 + 12);
    // seconds axis
    const yA = cv.height - B + 4, step = secs > 30 ? 5 : secs > 10 ? 2 : 1;
    g.lineWidth = 1; g.beginPath(); g.moveTo(L, yA); g.lineTo(L + pw, yA); g.stroke();
    for (let s = 0; s <= secs + 1e-9; s += step) { g.beginPath(); g.moveTo(x(s), yA); g.lineTo(x(s), yA + 4); g.stroke(); g.fillText(String(s), x(s) - 4, yA + 15); }
    g.fillText("s", L + pw + 14, yA + 15);
    cv.dataset.drawn = "true";
  }

  // ---- events ----
  function apply(m) {
    window.__board.events++;
    const p = m.payload;
    switch (m.kind) {
      case "snapshot":
        S.site = m.site; S.user = m.user; S.beds.clear(); S.alerts.clear();
        $("beds").replaceChildren(); $("alert-list").replaceChildren(); $("no-alerts").hidden = m.alerts.length > 0;
        $("site").textContent = m.site; $("user").textContent = m.user;
        for (const b of m.beds) { b.shown = b.status; S.beds.set(b.bed, b); drawBed(b); }
        for (const a of m.alerts.slice().reverse()) { a.feedback = a.feedback || []; a.acks = a.acks || []; S.alerts.set(a.id, a); drawAlert(a); }
        connection(m.connected);
        return;
      case "connection": connection(m.connected); return;
      case "status": { setStatus(bedOf(m.bed), p); return; }
      case "score": { const b = bedOf(m.bed), t = parse(p.t); b.scores.push([t, p.score]); while (b.scores.length && b.scores[0][0] < t - 600000) b.scores.shift(); heldArtifact(b, t); dirty.add(b); schedule(); return; }
      case "alert": {
        window.__board.received[p.id] = Date.now();
        const a = entry(p.id, m.bed); a.alert = p; const b = bedOf(m.bed); b.last_alert = p.detected_at; drawBed(b); drawAlert(a); beep(); return;
      }
      case "end": { const a = S.alerts.get(p.id); if (a) { a.end = p; drawAlert(a); } return; }
      case "evidence": { S.evidence.set(p.alert_id, p); const a = entry(p.alert_id, m.bed); a.has_evidence = true; drawAlert(a); return; }
      case "feedback": { const a = p.alert_id && S.alerts.get(p.alert_id); if (a) { a.feedback.push(p); drawAlert(a); } return; }
      case "feedback/ack": { const a = p.alert_id && S.alerts.get(p.alert_id); if (a) { a.acks.push(p); drawAlert(a); } else { bedOf(m.bed).last_ack = p; } return; }
      case "acknowledged": { const a = S.alerts.get(m.alert_id); if (a) { a.acked_by = m.by; a.acked_at = m.at; drawAlert(a); } return; }
    }
  }
  const dirty = new Set(); let scheduled = false;
  function schedule() { if (!scheduled) { scheduled = true; requestAnimationFrame(() => { scheduled = false; for (const b of dirty) drawBed(b); dirty.clear(); }); } }
  function connection(on) { S.connected = on; const c = $("conn"); c.textContent = on ? "broker connected" : "NOT CONNECTED to the broker"; c.className = "conn " + (on ? "on" : "off"); }

  async function start() {
    const r = await fetch("/session", { credentials: "same-origin" });
    if (!r.ok) { location.href = "/login"; return; }
    const s = await r.json(); S.csrf = s.csrf; $("logout-csrf").value = s.csrf;
    const es = new EventSource("/events");
    es.onmessage = (e) => { try { apply(JSON.parse(e.data)); } catch (err) { console.error("board event", err); } };
    es.onerror = () => connection(false);
  }
  start();
})();
