/** An image imported by the web app: the bundler copies it under /static/ and gives its URL. */
declare module "*.png" {
  const url: string;
  export default url;
}
