// hashikit site: hashikit's Python in a Web Worker.  Pyodide (its files beside the site, in
// pyodide/) starts, hashikit's modules (hashikit.zip) are unpacked into it, and each message
// {id, name, body} is answered {id, text} by hashikit.web.local.answer(name, body), or
// {id, error} when Python itself fails; {loaded: true} says Python is ready.
import { loadPyodide } from "../pyodide/pyodide.mjs";

// imported before Python says it is ready, so that a first hint or generation does not wait for them
const PRELOAD = "import hashikit.logic, hashikit.generate, hashikit.solvers.search, hashikit.solvers.process, " +
  "hashikit.checker, hashikit.formats, hashikit.service.play, hashikit.service.grading, hashikit.service.generating";

const ready = (async () => {
  const [py, zip] = await Promise.all([
    loadPyodide({ indexURL: new URL("../pyodide/", import.meta.url).href, packages: [] }),
    fetch(new URL("hashikit.zip", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`hashikit.zip: ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(zip, "zip", { extractDir: sitePackages });
  const answer = py.pyimport("hashikit.web.local").answer;
  py.runPython(PRELOAD);
  postMessage({ loaded: true });
  return answer;
})();

onmessage = async (ev) => {
  const { id, name, body } = ev.data;
  try {
    const answer = await ready;
    postMessage({ id, text: answer(name, body) });
  } catch (e) {
    // a Python failure's last line (its exception), not its whole traceback
    postMessage({ id, error: String((e && e.message) || e).trim().split("\n").pop() });
  }
};
