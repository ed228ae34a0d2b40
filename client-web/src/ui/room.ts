// The room before the game: its code and link, who is in, the host's Start
// button, and the countdown on the server's clock.

import { copyWithFeedback } from "./clipboard";
import type { ClientMessage } from "../protocol";
import type { Session } from "../game/session";
import { colourIn } from "../game/colours";
import { h, replace } from "./dom";
import { variantTitle } from "../game/title";

/** The waiting room and countdown. */
export class RoomScreen {
  readonly el: HTMLElement;
  private readonly title = h("h2", {});
  private readonly link = h("input", { readonly: true, id: "room-link", "aria-label": "Room link" });
  private readonly players = h("ul", { class: "players", id: "waiting-players" });
  private readonly controls = h("div", { class: "row" });
  private readonly countdown = h("div", { class: "countdown", id: "countdown", "aria-live": "assertive" });
  /** A quick race's own start: when it goes, or that it waits for a second racer. */
  private readonly quickStart = h("p", { id: "quick-start", "aria-live": "polite" });

  constructor(
    private readonly session: Session,
    private readonly send: (m: ClientMessage) => void,
    private readonly serverNow: () => number,
  ) {
    this.el = h(
      "main",
      { class: "room-screen" },
      h(
        "section",
        { class: "card" },
        this.title,
        h(
          "div",
          { class: "row" },
          h("label", { for: "room-link" }, "Invite link"),
          this.link,
          h("button", { type: "button", class: "small", id: "copy-link", onclick: (e: Event) => void this.copyLink(e.currentTarget as HTMLButtonElement) }, "Copy"),
        ),
        h("h3", {}, "Players"),
        this.players,
        this.controls,
        this.quickStart,
        this.countdown,
      ),
    );
  }

  /** Copies the invite link and says so on the button for two seconds. */
  private async copyLink(button: HTMLButtonElement) {
    await copyWithFeedback(button, this.link.value, () => this.link.select());
  }

  /** Redraws from the session. */
  update() {
    const room = this.session.room;
    if (!room) return;
    const variant = this.session.variants.find((v) => v.id === room.settings.variant);
    const mode = room.settings.quick ? "quick race" : room.settings.mode;
    this.title.textContent = `${variantTitle(variant, room.settings)} · ${room.settings.difficulty} · ${mode} — room ${room.code}`;
    this.link.value = `${this.session.siteBase(location.origin + location.pathname)}#${room.code}`;
    replace(
      this.players,
      ...room.players.map((p) =>
        h(
          "li",
          {},
          h("span", { class: "dot", style: `background:${colourIn(room.players, p.id)}` }),
          p.name,
          p.id === room.host && !room.settings.quick ? h("span", { class: "tag" }, "host") : null,
          p.id === this.session.me?.id ? h("span", { class: "tag" }, "you") : null,
          p.ready ? h("span", { class: "tag ready" }, "ready") : null,
        ),
      ),
    );
    // A quick race starts by itself: nobody is its host.
    const host = room.host === this.session.me?.id && !room.settings.quick;
    const waiting = room.state === "waiting";
    const mine = this.session.myPlayer();
    const others = room.players.filter((p) => p.id !== room.host);
    const ready = others.filter((p) => p.ready).length;
    replace(
      this.controls,
      room.spectator ? h("p", { class: "muted" }, "You are watching this room.") : null,
      waiting && host ? h("button", { class: "primary", id: "start", onclick: () => this.send({ type: "start" }) }, "Start") : null,
      waiting && host && others.length > 0 ? h("span", { class: "muted", id: "ready-count" }, `${ready} of ${others.length} ready`) : null,
      waiting && !host && mine && !room.settings.quick
        ? h(
            "button",
            { type: "button", id: "ready", "aria-pressed": String(mine.ready), class: mine.ready ? "on" : "", onclick: () => this.send({ type: "ready", ready: !mine.ready }) },
            mine.ready ? "Ready ✓" : "I'm ready",
          )
        : null,
      waiting && !host && !room.spectator && !room.settings.quick ? h("p", { class: "muted", id: "waiting-for-host" }, "Waiting for the host to start…") : null,
    );
    this.tick();
  }

  /** Updates the countdown (called several times a second). */
  tick() {
    const room = this.session.room;
    const quick = room?.settings.quick && room.state === "waiting";
    this.quickStart.hidden = !quick;
    if (quick) {
      const text =
        room.auto_start_at === null
          ? "A quick race: it starts by itself once a second racer is in."
          : `A quick race: it starts in ${Math.max(0, Math.ceil((room.auto_start_at - this.serverNow()) / 1000))} s (at once when ${room.settings.max_players} are in).`;
      if (this.quickStart.textContent !== text) this.quickStart.textContent = text;
    }
    if (room?.state === "countdown" && room.start_at !== null) {
      const left = Math.ceil((room.start_at - this.serverNow()) / 1000);
      const text = left > 0 ? String(left) : "Go!";
      if (this.countdown.textContent !== text) {
        // Each second is a new number that pops (and, with sound on, ticks).
        this.countdown.textContent = text;
        this.countdown.classList.remove("pop");
        void this.countdown.offsetWidth;
        this.countdown.classList.add("pop");
        this.session.cues.push(left > 0 ? "tick" : "go");
      }
    } else {
      this.countdown.textContent = "";
    }
  }
}
