/** A component that re-renders only when one of its props changed identity (Preact core has no memo). */
import { Component, type ComponentType } from "preact";

export function memo<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const prev = this.props as Record<string, unknown>;
      const n = next as Record<string, unknown>;
      for (const k in n) if (k !== "children" && prev[k] !== n[k]) return true;
      for (const k in prev) if (!(k in n)) return true;
      return false;
    }
    override render(props: P) {
      const C = Inner as ComponentType<P>;
      return <C {...props} />;
    }
  }
  (Memo as unknown as { displayName: string }).displayName = `memo(${Inner.displayName ?? Inner.name})`;
  return Memo as unknown as ComponentType<P>;
}
