export function KeysPage() {
  return <h1>Keys</h1>;
}
