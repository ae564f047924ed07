// A Cloudflare Worker (module syntax), run by workerd through `wrangler dev`: both probes per
// request, for the reference server named by ?server=.
import { probeClient } from "./probe/client.js";
import { probeServer } from "./probe/server.js";

export default {
  async fetch(request) {
    const serverUrl = new URL(request.url).searchParams.get("server");
    try {
      return Response.json({ ok: true, result: { ...(await probeClient(serverUrl)), ...(await probeServer()) } });
    } catch (error) {
      return Response.json({ ok: false, error: String((error && error.stack) || error) }, { status: 500 });
    }
  },
};
