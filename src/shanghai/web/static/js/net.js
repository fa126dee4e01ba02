// The WebSocket to the server: hello with the seat token, reconnect with back-off, keep-alive pings.

export class Connection {
  constructor({ token, invite, onMessage, onStatus }) {
    this.token = token;
    this.invite = invite;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.nextId = 1;
    this.retry = 0;
    this.stopped = false;
    this.pingTimer = 0;
    this.open();
    window.addEventListener("online", () => this.reconnectSoon(0));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!this.ws || this.ws.readyState > 1)) this.reconnectSoon(0);
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws`;
  }

  open() {
    if (this.stopped) return;
    this.onStatus(this.retry ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      const hello = { type: "hello", protocol: 2 };
      if (this.token) hello.token = this.token; else hello.invite = this.invite;
      ws.send(JSON.stringify(hello));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome") this.onStatus("connected");
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.stopped) return;
      this.onStatus("reconnecting");
      this.reconnectSoon(Math.min(8000, 300 * 2 ** this.retry++));
    });
  }

  reconnectSoon(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.ws && this.ws.readyState <= 1) return;
      this.open();
    }, delay);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
