"""The web page's screenshots in docs/, made from the current page.

    python docs/make_screenshots.py            # all of them, into docs/
    python docs/make_screenshots.py --out /tmp/shots solved phone

Starts ``hashikit serve --port 0`` (the real command, on a free port), drives Debian's Chromium
(``/usr/bin/chromium`` or ``$HASHIKIT_CHROMIUM``) with Playwright, and writes PNG files:

- ``screenshot-solved.png``: a desktop (1280x800) game solved by clicks;
- ``screenshot-marks.png``: playing with "no bridge" marks, possible bridges and group colours;
- ``screenshot-constructor.png``: the constructor with several solutions and a checked fix;
- ``screenshot-phone.png``: a generated 10x10 puzzle on a phone (390x844), a hint showing;
- ``screenshot-constructor-phone.png``: building on a phone, the number picker open;
- ``screenshot-dark.png``: dark mode, a hint showing;
- ``screenshot-print.png``: what printing gives (print media), both pages.

Look at them before committing them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")
PUZZLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3"
#: its solution, as [r1, c1, r2, c2, bridges]
SOLUTION = [[0, 0, 0, 5, 2], [0, 0, 2, 0, 2], [1, 1, 1, 4, 1], [1, 4, 1, 6, 1], [1, 4, 5, 4, 2], [1, 6, 6, 6, 1],
            [2, 0, 2, 3, 2], [2, 0, 5, 0, 2], [2, 3, 4, 3, 1], [5, 0, 5, 4, 1], [6, 1, 6, 6, 2]]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def island(page, r, c):
    return page.locator(f'#board .island[data-r="{r}"][data-c="{c}"]')


def tool(page, name):
    """A toolbar tool, the More menu opened first when the tool is folded into it."""
    if page.locator(f"#menu #{name}").count() and page.is_hidden("#menu"):
        page.click("#menu-button")
    return page.locator(f"#{name}")


def lay(page, r1, c1, r2, c2):
    island(page, r1, c1).click()
    island(page, r2, c2).click()


def still(page):
    """No hover highlight, no animation running."""
    page.mouse.move(0, 0)
    page.wait_for_timeout(700)


def open_page(browser, url, context, fragment=f"p={PUZZLE}", scheme="light"):
    ctx = browser.new_context(color_scheme=scheme, bypass_csp=True, **context)  # Playwright polls with eval
    page = ctx.new_page()
    page.goto(f"{url}/#{fragment}")
    page.wait_for_selector("body[data-ready=true]", timeout=20000)
    page.wait_for_selector("#board .island", timeout=20000)
    return page


def solved(browser, url, out):
    page = open_page(browser, url, DESKTOP)
    for r1, c1, r2, c2, k in SOLUTION:
        for _ in range(k):
            lay(page, r1, c1, r2, c2)
    page.wait_for_selector("#banner:not([hidden])")
    still(page)
    page.screenshot(path=str(out / "screenshot-solved.png"))


def marks(browser, url, out):
    page = open_page(browser, url, DESKTOP)
    lay(page, 1, 1, 1, 4)
    lay(page, 2, 0, 5, 0)
    island(page, 1, 1).focus()
    page.keyboard.press("Shift+ArrowDown")       # "no bridge" from the 1 down to the 2 (the solution agrees)
    tool(page, "possible").check()
    tool(page, "groups").check()
    island(page, 2, 3).click()                   # picked: dotted lines to the islands it can reach
    still(page)
    page.screenshot(path=str(out / "screenshot-marks.png"))


def constructor(browser, url, out):
    page = open_page(browser, url, DESKTOP)
    tool(page, "mode").click()
    page.fill("#blank-rows", "5")
    page.fill("#blank-cols", "5")
    page.click("#blank")
    board = page.locator("#board").bounding_box()
    cell = board["width"] / 5
    for r, c in ((0, 0), (0, 4), (4, 0), (4, 4)):
        page.mouse.click(board["x"] + (c + 0.5) * cell, board["y"] + (r + 0.5) * cell)
        page.keyboard.press("3")
    page.wait_for_selector("#suggest-apply:not([hidden])", timeout=30000)
    still(page)
    page.screenshot(path=str(out / "screenshot-constructor.png"))


def phone(browser, url, out):
    page = open_page(browser, url, PHONE)
    page.fill("#gen-rows", "10")
    page.fill("#gen-cols", "10")
    page.select_option("#gen-difficulty", "easy")
    page.fill("#gen-seed", "21")
    page.locator("#generate").scroll_into_view_if_needed()
    page.click("#generate")
    page.wait_for_function("document.getElementById('status').textContent.includes('seed 21')", timeout=60000)
    for _ in range(2):
        tool(page, "hint").click()
        page.wait_for_selector(".status.hinted", timeout=20000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "screenshot-phone.png"))


def constructor_phone(browser, url, out):
    page = open_page(browser, url, PHONE)
    tool(page, "mode").click()
    page.locator("#blank").scroll_into_view_if_needed()
    page.click("#blank")
    board = page.locator("#board").bounding_box()
    cell = board["width"] / 7
    for r, c, n in ((0, 0, "3"), (0, 4, "3"), (2, 0, "3"), (2, 4, "3"), (4, 2, None)):
        box = page.locator("#board").bounding_box()
        page.touchscreen.tap(box["x"] + (c + 0.5) * cell, box["y"] + (r + 0.5) * cell)
        page.wait_for_selector("#picker:not([hidden])")
        if n:
            page.locator("#picker button", has_text=n).first.tap()
    page.wait_for_timeout(600)
    page.screenshot(path=str(out / "screenshot-constructor-phone.png"))


def dark(browser, url, out):
    page = open_page(browser, url, DESKTOP, scheme="dark")
    lay(page, 1, 1, 1, 4)
    for _ in range(2):
        tool(page, "hint").click()
        page.wait_for_selector(".status.hinted", timeout=20000)
    still(page)
    page.screenshot(path=str(out / "screenshot-dark.png"))


def print_view(browser, url, out):
    page = open_page(browser, url, {"viewport": {"width": 800, "height": 1000}})
    page.wait_for_function("document.body.dataset.solutions === 'one'", timeout=20000)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")   # as Ctrl+P does
    page.emulate_media(media="print")
    page.screenshot(path=str(out / "screenshot-print.png"), full_page=True)


def trial(browser, url, out):
    page = open_page(browser, url, DESKTOP)
    lay(page, 1, 1, 1, 4)
    tool(page, "trial").click()
    for _ in range(2):
        lay(page, 0, 0, 0, 5)
    lay(page, 0, 0, 2, 0)
    still(page)
    page.screenshot(path=str(out / "screenshot-trial.png"))


def menu_phone(browser, url, out):
    page = open_page(browser, url, {"viewport": {"width": 320, "height": 640}, "has_touch": True, "is_mobile": True,
                                    "device_scale_factor": 2})
    lay(page, 1, 1, 1, 4)
    page.locator("#menu-button").tap()
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "screenshot-menu-phone.png"))


def picture(browser, url, out):
    import random

    from hashikit import render
    from hashikit.generate import random_solution
    from hashikit.model import Solution

    pz, sol = random_solution(8, 8, random.Random(21))
    data = render.png(pz, Solution(dict(list(sol.bridges.items())[::3])), cell=32)
    page = open_page(browser, url, DESKTOP)
    page.set_input_files("#picture-file", files=[{"name": "shot.png", "mimeType": "image/png", "buffer": data}])
    page.wait_for_selector("#picture-view:not([hidden])", timeout=30000)
    page.locator("#picture-overlay .picture-island").nth(3).click()
    still(page)
    page.screenshot(path=str(out / "screenshot-picture.png"))


SHOTS = {"solved": solved, "marks": marks, "constructor": constructor, "phone": phone,
         "constructor-phone": constructor_phone, "dark": dark, "print": print_view, "trial": trial,
         "menu-phone": menu_phone, "picture": picture}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shots", nargs="*", help=f"which (default: all): {', '.join(SHOTS)}")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    unknown = [name for name in args.shots if name not in SHOTS]
    if unknown:
        ap.error(f"unknown shot {unknown[0]!r}; choose from {', '.join(SHOTS)}")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen([sys.executable, "-m", "hashikit", "serve", "--port", "0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        line = ""
        while "playing at" not in line:
            line = server.stderr.readline()
            if not line:
                raise SystemExit("hashikit serve did not start")
        url = re.search(r"(http://\S+?)/", line).group(1)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for name in args.shots or SHOTS:
                SHOTS[name](browser, url, args.out)
                print(f"wrote {args.out / ('screenshot-' + name + '.png')}")
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
