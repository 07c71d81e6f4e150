// Writes to stdout the licence file that ships beside the vendored bundle: the bundle is
// minified with its legal comments dropped, so this file is where its licences live.
// Usage (from web/sdk, as build.sh runs it): node licenses.mjs META.json BUNDLE_NAME
//
// Which packages are in the bundle comes from esbuild's metafile, so a new dependency
// of a future SDK version is listed without anyone keeping a list by hand, and one
// whose licence cannot be found stops the build rather than shipping unattributed.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";

const [metaPath, bundleName] = process.argv.slice(2);
if (!metaPath || !bundleName) {
  console.error("usage: node licenses.mjs META.json BUNDLE_NAME");
  process.exit(2);
}

const SDK = "@discord/embedded-app-sdk";
// The SDK is published already rolled up: its dependencies' code sits in copies under
// output/lib/<dependency>/, so esbuild reads them as the SDK's own files. They are
// attributed to the dependency they came from, not to Discord.
const VENDORED_INSIDE = { [SDK]: "output/lib/" };
const LICENCE_FILES = ["LICENSE", "LICENCE", "LICENSE.md", "LICENCE.md", "LICENSE.txt", "LICENCE.txt"];

const meta = JSON.parse(readFileSync(metaPath, "utf8"));
const outputs = Object.values(meta.outputs);
if (outputs.length !== 1) throw new Error(`expected one output in ${metaPath}, found ${outputs.length}`);

// A file read but tree-shaken away entirely puts nothing of its package into the bundle.
const bundled = Object.entries(outputs[0].inputs)
  .filter(([, info]) => info.bytesInOutput > 0)
  .map(([path]) => path);

/** Splits "node_modules/a/node_modules/@s/b/x/y.js" into ["node_modules/a/node_modules/@s/b", "@s/b", "x/y.js"]. */
function splitPackagePath(path) {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const parts = path.slice(at + "node_modules/".length).split("/");
  const nameLength = parts[0].startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameLength).join("/");
  return [path.slice(0, at) + "node_modules/" + name, name, parts.slice(nameLength).join("/")];
}

function packageJson(dir) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

function licenceFileIn(dir) {
  // Exact names only, in a fixed order, so the choice does not depend on the file system.
  const present = new Set(readdirSync(dir));
  return LICENCE_FILES.find((name) => present.has(name)) ?? null;
}

function normalise(text) {
  return text.replace(/\r\n?/g, "\n").replace(/\s+$/, "") + "\n";
}

/** The opening block comment of a vendored file, when it is a copyright or licence notice. */
function noticeAtTopOf(file) {
  const match = /^\s*\/\*([\s\S]*?)\*\//.exec(readFileSync(file, "utf8"));
  if (!match || !/copyright|licen[cs]e/i.test(match[1])) return null;
  return match[1]
    .split("\n")
    .map((line) => line.replace(/^\s*\*+ ?/, "").replace(/^\*+$/, ""))
    .join("\n")
    .replace(/^\s*\n|\s+$/g, "");
}

const entries = new Map(); // package name -> { title, text }

function addInstalled(name, dir, note) {
  const pkg = packageJson(dir);
  const file = licenceFileIn(dir);
  let text;
  let source;
  if (file) {
    text = readFileSync(join(dir, file), "utf8");
    source = file;
  } else if (typeof pkg.license === "string" && pkg.license) {
    text = `Licensed under ${pkg.license} (the package ships no licence file; this is the "license" field of its package.json).`;
    source = "package.json";
  } else {
    throw new Error(`${name} ${pkg.version} is in the bundle but has no licence file and no "license" field`);
  }
  const licence = typeof pkg.license === "string" ? pkg.license : "see text";
  entries.set(name, {
    title: `${name} ${pkg.version} (${licence}), from its ${source}${note ? `; ${note}` : ""}`,
    text: normalise(text),
  });
}

for (const path of bundled) {
  const split = splitPackagePath(path);
  if (!split) continue; // web/sdk's own entry module
  const [dir, name, inside] = split;
  const vendoredPrefix = VENDORED_INSIDE[name];
  if (vendoredPrefix && inside.startsWith(vendoredPrefix)) {
    const rest = inside.slice(vendoredPrefix.length).split("/");
    const dep = rest[0].startsWith("@") ? rest.slice(0, 2).join("/") : rest[0];
    if (entries.has(dep)) continue;
    const hostVersion = packageJson(dir).version;
    const note = `its code is the copy published inside ${name} ${hostVersion}`;
    // Where Node would resolve the dependency from the SDK: nested first, then beside it.
    const installed = [join(dir, "node_modules", dep), join(dir.slice(0, -name.length), dep)].find(
      (candidate) => existsSync(join(candidate, "package.json")),
    );
    if (installed) {
      addInstalled(dep, installed, `${note}, the licence text is from the installed package`);
    } else {
      // A build-time helper of the SDK's own (tslib) is not one of its dependencies, so it is
      // not installed; its copy still carries its notice.
      const notice = noticeAtTopOf(path);
      if (!notice) throw new Error(`${dep} (inside ${name}, ${path}) is in the bundle but no licence for it was found`);
      entries.set(dep, {
        title: `${dep}, from the notice at the top of its copy (${note})`,
        text: normalise(notice),
      });
    }
    continue;
  }
  if (!entries.has(name)) addInstalled(name, dir, "");
}

if (!entries.has(SDK)) throw new Error(`${SDK} is not in the bundle: is entry.mjs importing it?`);

const sdkVersion = packageJson(join("node_modules", SDK)).version;
const esbuildVersion = packageJson(join("node_modules", "esbuild")).version;
const rule = "=".repeat(78);
// Plain code-point order: localeCompare would depend on the machine's ICU data.
const names = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

let out = `${bundleName} is ${SDK} ${sdkVersion}, bundled with esbuild ${esbuildVersion} by web/sdk/build.sh. The licences of the code in it follow, by package name.\n`;
for (const name of names) {
  const { title, text } = entries.get(name);
  out += `\n${rule}\n${title}\n${rule}\n\n${text}`;
}
process.stdout.write(out);
