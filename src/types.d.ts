declare module "*.sql" {
  const text: string;
  export default text;
}

// web client files imported as text (src/web/assets.ts)
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*/assets/app.js" {
  const text: string;
  export default text;
}

// emoji-datasource's data, imported as an embedded file (its path), read on first use (src/domain/emoji.ts)
declare module "emoji-datasource/emoji.json" {
  const path: string;
  export default path;
}
