/**
 * The notification sounds, made in the page with the Web Audio API (no sound file to ship or
 * license): short sine and triangle tones with a quick attack and a soft decay. Each name the server
 * offers ("chime", "ding", "zulip") has its own few notes; "none" is silence. Browsers let a page play
 * sound only after the person interacted with it, so the audio is unlocked on the first key or click.
 */

type Note = { freq: number; at: number; length: number; type: OscillatorType; gain: number };

const TUNES: Record<string, Note[]> = {
  chime: [
    { freq: 1318.5, at: 0, length: 0.5, type: "sine", gain: 0.22 },
    { freq: 1760, at: 0.12, length: 0.7, type: "sine", gain: 0.18 },
  ],
  ding: [{ freq: 1568, at: 0, length: 0.6, type: "triangle", gain: 0.25 }],
  zulip: [
    { freq: 880, at: 0, length: 0.22, type: "sine", gain: 0.2 },
    { freq: 1108.7, at: 0.09, length: 0.22, type: "sine", gain: 0.2 },
    { freq: 1318.5, at: 0.18, length: 0.45, type: "sine", gain: 0.2 },
  ],
};

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (!context && typeof AudioContext === "function") context = new AudioContext();
  return context;
}

/** Lets sounds play later: browsers start audio only from a person's gesture. */
export function unlockSoundOnFirstGesture(): void {
  const unlock = () => {
    void audio()?.resume().catch(() => {});
    removeEventListener("pointerdown", unlock, true);
    removeEventListener("keydown", unlock, true);
  };
  addEventListener("pointerdown", unlock, true);
  addEventListener("keydown", unlock, true);
}

export function playSound(name: string): void {
  const tune = TUNES[name] ?? TUNES.zulip!;
  if (name === "none") return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") void ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.02;
  for (const n of tune) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = n.type;
    osc.frequency.value = n.freq;
    const t = start + n.at;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(n.gain, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + n.length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + n.length + 0.05);
  }
}
