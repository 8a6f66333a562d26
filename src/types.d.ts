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

