// The page: a Client Component that runs the client probe in the browser.
import Probe from "./probe.js";

export default function Page() {
  return <Probe />;
}
