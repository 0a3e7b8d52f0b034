// check.mjs opens an HTML page of portlab figures (a file path) in headless
// Chromium with every network request blocked and the browser context
// offline, then checks that
//   - every <img> has loaded (naturalWidth > 0),
//   - every .portlab-chart has been drawn by ECharts (data-portlab-drawn)
//     and its canvas has pixels that are neither transparent nor white,
//   - hovering the first data item of each chart shows a tooltip,
//   - the page raised no JavaScript error and requested nothing but files.
// It prints one JSON object with the findings to stdout and exits with 1 if
// a check failed, 2 if it could not run.
//
//   node check.mjs PAGE.html [--screenshot OUT.png] [--allow-missing PREFIX]
//
// --allow-missing tolerates local files under PREFIX that the page asks for
// but that are not installed (nbconvert's template links MathJax from
// file:///usr/share/javascript/mathjax/, which a test machine may lack).
//
// CHROMIUM names the browser binary (default /usr/bin/chromium).
import { chromium } from "playwright-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
if (args.length < 1) {
  console.error("usage: node check.mjs PAGE.html [--screenshot OUT.png]");
  process.exit(2);
}
const pageFile = path.resolve(args[0]);
const shotIdx = args.indexOf("--screenshot");
const screenshot = shotIdx >= 0 ? args[shotIdx + 1] : "";
const allowIdx = args.indexOf("--allow-missing");
const allowMissing = allowIdx >= 0 ? args[allowIdx + 1] : "";
let allowedFailures = 0;

const report = { page: pageFile, images: [], charts: [], errors: [], blocked: [], ok: false };
const fail = (msg) => report.errors.push(msg);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions",
  ],
});
try {
  const context = await browser.newContext({ offline: true, viewport: { width: 1200, height: 900 } });
  // Block everything that is not a local file or inline data.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    report.blocked.push(url);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => fail("page error: " + e.message));
  page.on("requestfailed", (r) => {
    if (allowMissing && r.url().startsWith(allowMissing)) allowedFailures++;
  });
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    if (allowedFailures > 0 && m.text().startsWith("Failed to load resource")) {
      allowedFailures--;
      return;
    }
    fail("console error: " + m.text());
  });
  page.on("request", (r) => {
    const url = r.url();
    if (!(url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:"))) report.blocked.push(url);
  });

  const t0 = Date.now();
  await page.goto(pathToFileURL(pageFile).href, { waitUntil: "load" });

  report.images = await page.$$eval("img", (imgs) =>
    imgs.map((i) => ({ alt: i.alt, complete: i.complete, naturalWidth: i.naturalWidth, naturalHeight: i.naturalHeight })));
  for (const im of report.images) {
    if (!(im.complete && im.naturalWidth > 0)) fail(`image ${JSON.stringify(im.alt)} not loaded`);
  }

  const ids = await page.$$eval(".portlab-chart", (els) => els.map((e) => e.id));
  if (new Set(ids).size !== ids.length) fail("chart ids are not unique: " + ids.join(", "));
  for (const id of ids) {
    const sel = "#" + id;
    const chart = { id, drawn: false, canvases: 0, width: 0, height: 0, inked: 0, fraction: 0, tooltip: "" };
    report.charts.push(chart);
    try {
      await page.waitForSelector(sel + "[data-portlab-drawn]", { timeout: 90000, state: "attached" });
      chart.drawn = true;
    } catch (e) {
      const text = await page.$eval(sel, (el) => el.textContent);
      fail(`chart ${id} not drawn within 90 s${text ? ": " + text : ""}`);
      continue;
    }
    chart.msSinceLoad = Date.now() - t0;
    chart.msToDraw = Number(await page.$eval(sel, (el) => el.getAttribute("data-portlab-ms")));
    Object.assign(chart, await page.$eval(sel, (el) => {
      const cs = el.querySelectorAll("canvas");
      let inked = 0, total = 0, width = 0, height = 0;
      for (const c of cs) {
        width = Math.max(width, c.width);
        height = Math.max(height, c.height);
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) {
          total++;
          const a = d[i + 3], r = d[i], g = d[i + 1], b = d[i + 2];
          if (a > 0 && !(r > 250 && g > 250 && b > 250)) inked++;
        }
      }
      return { canvases: cs.length, width, height, inked, fraction: total ? inked / total : 0 };
    }));
    if (chart.canvases === 0) fail(`chart ${id} has no canvas`);
    else if (chart.fraction < 0.01) fail(`chart ${id}: only ${chart.inked} inked pixels`);

    // Hover the first data item of the first series and read the tooltip.
    const pt = await page.$eval(sel, (el) => {
      el.scrollIntoView({ block: "center" });
      const inst = window.echarts.getInstanceByDom(el);
      const series = inst.getOption().series[0];
      const item = series.data[0];
      const v = item && item.value !== undefined ? item.value : item;
      const xy = inst.convertToPixel({ seriesIndex: 0 }, Array.isArray(v) ? [v[0], v[1]] : [0, v]);
      const r = el.getBoundingClientRect();
      return { x: r.left + xy[0], y: r.top + xy[1], type: series.type };
    });
    chart.type = pt.type;
    if (pt.type === "bar") pt.y += 6; // inside the bar, below its top
    await page.mouse.move(pt.x + 1, pt.y + 1);
    try {
      const h = await page.waitForFunction((s) => {
        const tips = [...document.querySelectorAll(s + " div")].filter(
          (d) => getComputedStyle(d).position === "absolute" && d.style.display !== "none" && d.innerText.trim() !== "");
        return tips.length ? tips.map((d) => d.innerText).join(" | ") : false;
      }, sel, { timeout: 5000 });
      chart.tooltip = await h.jsonValue();
    } catch (e) {
      fail(`chart ${id}: no tooltip when hovering its first item`);
    }
    await page.mouse.move(0, 0);
  }
  report.msToUnpackECharts = await page.evaluate(() => window.__portlabEChartsMs || null);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  const external = report.blocked.filter((u) => !u.startsWith("file:"));
  if (external.length) fail("the page requested the network: " + [...new Set(external)].join(", "));
  report.ok = report.errors.length === 0;
} catch (e) {
  fail("driver: " + (e && e.stack ? e.stack : e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(report, null, 1));
process.exit(report.ok ? 0 : 1);
