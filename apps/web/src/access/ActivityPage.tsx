export function ActivityPage() {
  return <h1>Activity</h1>;
}
