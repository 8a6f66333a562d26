declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.svg" {
  const text: string;
  export default text;
}
declare module "*.png" {
  const path: string;
  export default path;
}
