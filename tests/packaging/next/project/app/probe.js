"use client";
// A Client Component: the client probe in the browser (validation, TaskClient call to the
// reference server named by ?server=); the outcome goes to globalThis.__probe and the page.
import { useEffect, useState } from "react";
import { probeClient } from "../probe/client.js";

export default function Probe() {
  const [text, setText] = useState("running");
  useEffect(() => {
    const serverUrl = new URL(location.href).searchParams.get("server");
    probeClient(serverUrl).then(
      (result) => { globalThis.__probe = { ok: true, result }; setText(JSON.stringify(result)); },
      (error) => { globalThis.__probe = { ok: false, error: String((error && error.stack) || error) }; setText("failed"); },
    );
  }, []);
  return <pre id="probe">{text}</pre>;
}
