/** A component whose code loads when it is first drawn (a separate chunk), showing `fallback` until then. */
import type { ComponentChildren, ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

export function lazy<P extends object>(load: () => Promise<ComponentType<P>>, fallback: (props: P) => ComponentChildren = () => null): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [, setReady] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let current = true;
      loading ??= load().then((c) => (loaded = c));
      loading.then(
        () => current && setReady(true),
        () => {
          loading = null;
        },
      );
      return () => {
        current = false;
      };
    }, []);
    const C = loaded;
    return C ? <C {...props} /> : <>{fallback(props)}</>;
  };
}
