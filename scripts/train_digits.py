"""Rebuild hashikit/data/digits.npz, the digit classifier the picture reader uses.

    .venv/bin/python scripts/train_digits.py [--out hashikit/data/digits.npz] [--seed 1] [--per-class 9000]
                                             [--held]

The training data are made here, not downloaded: islands drawn with the digits 0-9 (and, as "not a
digit", letters, signs and ink scraps) in the fonts of :data:`TRAINING_FONTS`, at 6 to 80 px high
(a cell of about 12 to 150 px), in a ring or bare, with bridges and grid lines touching them,
upright or italic, thin or bold, dark on light or light on dark, and then what a camera does:
turned, slanted, blurred, scaled down and up, unevenly lit, noised, JPEG-compressed.  Each sample
goes through the reader's own steps (``hashikit.formats.picture_image.ink_contrast``, the ink
threshold, ``picture_digits.free_candidates`` and ``ring_candidates``), so the network sees exactly
what the reader will give it: the component at the island's middle is the digit, every other
candidate the reader would consider there is "not a digit".  The same seed and fonts give the same
model.

The network is a small multilayer perceptron (402 -> 256 -> 128 -> 11, ReLU, softmax), trained with
Adam in numpy; the file holds its weights in float16 and the input normalisation (about 200 kB).
It prints its accuracy on three training fonts left out of a first run (the check used while
choosing its settings); with ``--held``, also on the fonts of :data:`HELD_FONTS`, which are never
trained on and never tuned with (they measure; see benchmarks/results/pictures.md).
"""

from __future__ import annotations

import argparse
import glob
import io
import math
import os
import sys
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from hashikit.formats import picture, picture_digits, picture_image  # noqa: E402

#: fonts the network is trained on (file name patterns)
TRAINING_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVu*.ttf",
                  "/usr/share/fonts/truetype/liberation*/Liberation*.ttf",
                  "/usr/share/fonts/truetype/freefont/Free*.ttf",
                  "/usr/share/fonts/opentype/urw-base35/*.otf",
                  "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf")
#: fonts held back: never trained on, never tuned with, only measured on
HELD_FONTS = ("/usr/share/fonts/truetype/noto/NotoSans-*.ttf", "/usr/share/fonts/truetype/noto/NotoSerif-*.ttf",
              "/usr/share/fonts/truetype/noto/NotoMono-*.ttf",
              "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-*.ttf",
              "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-*.ttf",
              "/usr/share/fonts/truetype/open-sans/OpenSans-*.ttf")
#: font files without proper digits (symbols, dingbats, a script face, hairline weights)
NOT_TEXT = ("D050000L", "StandardSymbols", "Z003", "chorus", "MathTeX", "ExtraLight", "Thin", "Light")
#: training fonts left out of the first run, to check the settings on
CHECK_FONTS = ("LiberationSerif-Regular", "FreeSansBold.", "texgyreheros-regular")
#: "not a digit": glyphs that look like no digit (O, I, l, S, B, Z, b, g, q do, in some fonts)
NEGATIVES = "acdefhkmnprstuvwxyzACEFHJKLMNPRTUVWXY?#%&@()+=<>/*-x\u00d7\u00f7\u2212:!$[]"
DIGITS = "1234567890"
#: class of each digit character: 1..9 as themselves, 0 as the last class (picture_digits.CLASS_DIGIT)
CLASS = {ch: (int(ch) if ch != "0" else 10) for ch in DIGITS}


def font_files(patterns) -> list[str]:
    out = []
    for p in patterns:
        out += [f for f in sorted(glob.glob(p)) if not any(k in os.path.basename(f) for k in NOT_TEXT)]
    return out


_FONTS: dict = {}


def _font(path, size):
    size = int(round(1.06 ** round(math.log(size) / math.log(1.06))))  # sizes 6% apart: a small cache
    key = (path, size)
    if key not in _FONTS:
        _FONTS[key] = ImageFont.truetype(path, size)
    return _FONTS[key]


def island(ch: str, font_path: str, rng: np.random.Generator):
    """One island drawn at a random scale and style: (grey picture 0..1, light ink?, digit height)."""
    h = float(np.exp(rng.uniform(np.log(6), np.log(80))))  # the digit's height in the final picture
    ss = 3 if h < 30 else 2  # drawn larger, then scaled down: anti-aliased like a renderer
    H = h * ss
    font = _font(font_path, max(6, int(round(H / 0.72))))
    ring = rng.random() < 0.6
    R = H * rng.uniform(0.75, 1.45)
    side = int(math.ceil(max(4.2 * H, 2.7 * R)))
    side += side % 2
    light = rng.random() < 0.15
    paper = rng.uniform(0.65, 1.0)
    ink = rng.uniform(0.0, max(0.05, paper - 0.45))
    if light:
        paper, ink = rng.uniform(0.0, 0.3), rng.uniform(0.65, 1.0)
    im = Image.new("L", (side, side), int(paper * 255))
    d = ImageDraw.Draw(im)
    c = side / 2
    cell = (R / rng.uniform(0.38, 0.62)) if ring else H / rng.uniform(0.4, 0.7)
    g = int(rng.uniform(paper * 255 * 0.55, paper * 255 * 0.9)) if not light else int(paper * 255 + 60)
    if rng.random() < 0.15:  # grid lines through the islands, or between the cells
        gw = max(1, int(H * rng.uniform(0.02, 0.08)))
        gcol = int(ink * 255) if rng.random() < 0.4 else g
        if rng.random() < 0.6:
            d.line((0, c, side, c), fill=gcol, width=gw)
            d.line((c, 0, c, side), fill=gcol, width=gw)
        else:
            for k in (-1.5, -0.5, 0.5, 1.5):
                d.line((0, c + k * cell, side, c + k * cell), fill=gcol, width=gw)
                d.line((c + k * cell, 0, c + k * cell, side), fill=gcol, width=gw)
    if rng.random() < 0.5:  # bridges leaving the island
        bw = max(1, int(H * rng.uniform(0.05, 0.2)))
        gap = H * rng.uniform(0.3, 0.6)
        start = R if ring else 0.6 * H
        for ang in range(4):
            if rng.random() < 0.45:
                n = 1 if rng.random() < 0.6 else 2
                for k in range(n):
                    off = (k - (n - 1) / 2) * gap
                    dx, dy = math.cos(ang * math.pi / 2), math.sin(ang * math.pi / 2)
                    x0, y0 = c + dx * start - dy * off, c + dy * start + dx * off
                    d.line((x0, y0, c + dx * side - dy * off, c + dy * side + dx * off), fill=int(ink * 255), width=bw)
    if ring:
        rw = max(1, int(R * rng.uniform(0.04, 0.15)))
        fill = int(paper * 255) if rng.random() < 0.7 else int(np.clip(paper * 255 + rng.uniform(-40, 40), 0, 255))
        d.ellipse((c - R, c - R, c + R, c + R), fill=fill, outline=int(ink * 255), width=rw)
    elif rng.random() < 0.5:  # a bare digit on a disc of paper, bridges stopping short of it
        rr = 0.62 * H
        d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=int(paper * 255))
    stroke = int(rng.integers(1, max(2, int(H * 0.05)) + 1)) if rng.random() < 0.2 else 0
    glyph = Image.new("L", (side, side), 0)
    x0, y0, x1, y1 = font.getbbox(ch, anchor="ls", stroke_width=stroke)
    ImageDraw.Draw(glyph).text((c - (x0 + x1) / 2, c - (y0 + y1) / 2), ch, font=font, fill=255, anchor="ls",
                               stroke_width=stroke, stroke_fill=255)
    if rng.random() < 0.2:  # italic
        k = rng.uniform(-0.28, 0.28)
        glyph = glyph.transform(glyph.size, Image.AFFINE, (1, k, -k * c, 0, 1, 0), Image.BILINEAR)
    if rng.random() < 0.15:  # thinner strokes
        import cv2

        glyph = Image.fromarray(cv2.erode(np.asarray(glyph), np.ones((3, 3), np.uint8)))
    im.paste(int(ink * 255), (0, 0), glyph)
    a = np.asarray(im, np.float32) / 255.0
    a = _camera(a, rng, ss, h)
    return a, light, h


def scrap(rng: np.random.Generator):
    """Ink that is no digit: a dot, a bar, an arc, a box, a blob, a tree, a ring alone."""
    h = float(np.exp(rng.uniform(np.log(6), np.log(80))))
    ss = 2
    H = h * ss
    side = int(4 * H)
    a = Image.new("L", (side, side), 255)
    d = ImageDraw.Draw(a)
    c = side / 2
    kind = rng.integers(0, 7)
    w = max(1, int(H * rng.uniform(0.06, 0.25)))
    if kind == 0:
        r = H * rng.uniform(0.1, 0.5)
        d.ellipse((c - r, c - r, c + r, c + r), fill=0)
    elif kind == 1:
        L = H * rng.uniform(0.3, 1.2)
        ang = rng.uniform(0, math.pi)
        d.line((c - L / 2 * math.cos(ang), c - L / 2 * math.sin(ang), c + L / 2 * math.cos(ang),
                c + L / 2 * math.sin(ang)), fill=0, width=w)
    elif kind == 2:
        d.arc((c - H / 2, c - H / 2, c + H / 2, c + H / 2), rng.uniform(0, 360), rng.uniform(0, 360), fill=0, width=w)
    elif kind == 3:
        d.rectangle((c - H * rng.uniform(0.2, 0.5), c - H / 2, c + H * rng.uniform(0.2, 0.5), c + H / 2),
                    outline=0, width=w, fill=0 if rng.random() < 0.3 else None)
    elif kind == 4:  # a tree, as a tents puzzle draws one
        d.polygon([(c, c - H / 2), (c - H * 0.35, c + H * 0.2), (c + H * 0.35, c + H * 0.2)], fill=0)
        d.rectangle((c - H * 0.06, c + H * 0.2, c + H * 0.06, c + H / 2), fill=0)
    elif kind == 5:  # a cross or a diagonal through a cell
        d.line((c - H / 2, c - H / 2, c + H / 2, c + H / 2), fill=0, width=w)
        if rng.random() < 0.5:
            d.line((c - H / 2, c + H / 2, c + H / 2, c - H / 2), fill=0, width=w)
    else:
        R = H * rng.uniform(0.75, 1.45)
        d.ellipse((c - R, c - R, c + R, c + R), outline=0, width=max(1, int(R * rng.uniform(0.04, 0.15))))
    g = np.asarray(a, np.float32) / 255.0
    return _camera(g, rng, ss, h), False, h


def _camera(a, rng, ss, h):
    """What a camera and a printer do to a drawn island, and the scale brought down to the picture's."""
    import cv2

    side = a.shape[0]
    if rng.random() < 0.5:  # turned and slanted a little
        ang = rng.uniform(-12, 12)
        M = cv2.getRotationMatrix2D((side / 2, side / 2), ang, 1.0)
        a = cv2.warpAffine(a, M, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.3:
        f = rng.uniform(0.0, 0.12) * side
        src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        dst = src + np.float32(rng.uniform(-f, f, (4, 2)))
        a = cv2.warpPerspective(a, cv2.getPerspectiveTransform(src, dst), (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    out = max(8, int(round(side / ss)))
    a = cv2.resize(a, (out, out), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.6:
        sigma = rng.uniform(0.2, max(0.6, min(2.2, 0.11 * h)))
        a = cv2.GaussianBlur(a, (0, 0), sigma)
    if rng.random() < 0.25 and h > 10:
        f = rng.uniform(0.45, 0.9)
        small = cv2.resize(a, (max(6, int(out * f)), max(6, int(out * f))), interpolation=cv2.INTER_AREA)
        a = cv2.resize(small, (out, out), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:  # uneven light
        yy, xx = np.mgrid[0:out, 0:out].astype(np.float32) / out
        t = rng.uniform(0, 2 * math.pi)
        g = xx * math.cos(t) + yy * math.sin(t)
        g = (g - g.min()) / max(1e-6, g.max() - g.min())
        low = rng.uniform(0.5, 0.95)
        a = a * (low + (1 - low) * g)
    if rng.random() < 0.5:
        a = a + rng.normal(0, rng.uniform(0.005, 0.06), a.shape).astype(np.float32)
    a = np.clip(a, 0, 1)
    if rng.random() < 0.4:
        buf = io.BytesIO()
        Image.fromarray((a * 255).astype(np.uint8)).save(buf, "JPEG", quality=int(rng.integers(30, 95)))
        a = np.asarray(Image.open(buf), np.float32) / 255.0
    return a.astype(np.float32)


def extract(gray, light, h, rng):
    """The reader's candidates in one drawn sample: [(features, is the middle one)]."""
    import cv2

    k = picture_image.kernel_side(gray, h * rng.uniform(0.85, 1.2))
    contrast = picture_image.ink_contrast(gray, light, k)
    thr, _top = picture._threshold(contrast)
    if thr is None:
        return []
    ink = picture_image.ink_mask(contrast, thr)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    frame = int(12 * h)  # the picture around the island: a board of several cells
    fc, ff = picture_digits.free_candidates(contrast, labels, stats, frame)
    rc, rf = picture_digits.ring_candidates(contrast, ink, frame)
    side = gray.shape[0]
    out = []
    for d, f in zip(fc + rc, ff + rf):
        cx, cy = d.x + d.w / 2, d.y + d.h / 2
        middle = abs(cx - side / 2) < 0.3 * h and abs(cy - side / 2) < 0.3 * h and 0.6 * h < d.h < 1.5 * h
        out.append((f, middle))
    return out


def build(font_list, per_class: int, rng, log=True):
    """Samples: per_class islands of each digit over the fonts, as many "not a digit" again."""
    X, Y = [], []
    t0 = time.time()
    total = per_class * len(DIGITS)
    for i in range(total):
        ch = DIGITS[i % len(DIGITS)]
        font = font_list[rng.integers(0, len(font_list))]
        gray, light, h = island(ch, font, rng)
        for f, middle in extract(gray, light, h, rng):
            X.append(f)
            Y.append(CLASS[ch] if middle else 0)
        if log and i and i % 20000 == 0:
            print(f"  {i} of {total} islands drawn ({time.time() - t0:.0f} s)", flush=True)
    for i in range(per_class * 3):
        if rng.random() < 0.6:
            ch = NEGATIVES[rng.integers(0, len(NEGATIVES))]
            font = font_list[rng.integers(0, len(font_list))]
            gray, light, h = island(ch, font, rng)
        else:
            gray, light, h = scrap(rng)
        for f, _middle in extract(gray, light, h, rng):
            X.append(f)
            Y.append(0)
    return np.stack(X), np.array(Y)


def train(X, Y, rng, epochs=30, hidden=(256, 128), log=True):
    mean, std = X.mean(0), X.std(0) + 1e-3
    Xn = ((X - mean) / std).astype(np.float32)
    classes = len(picture_digits.CLASS_DIGIT)
    sizes = [X.shape[1], *hidden, classes]
    Ws = [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = Ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, t = 2e-3, 0.9, 0.999, 0
    n = len(Xn)
    smooth = 0.02
    L = len(Ws)
    for epoch in range(epochs):
        order = rng.permutation(n)
        for k in range(0, n, 256):
            idx = order[k:k + 256]
            x, y = Xn[idx], Y[idx]
            acts = [x]
            for i in range(L - 1):
                acts.append(np.maximum(acts[-1] @ Ws[i] + bs[i], 0))
            z = acts[-1] @ Ws[-1] + bs[-1]
            z -= z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            target = np.full_like(p, smooth / classes)
            target[np.arange(len(y)), y] += 1 - smooth
            g = (p - target) / len(y)
            gW, gb = [None] * L, [None] * L
            for i in range(L - 1, -1, -1):
                gW[i] = acts[i].T @ g + 1e-4 * Ws[i]
                gb[i] = g.sum(0)
                if i:
                    g = (g @ Ws[i].T) * (acts[i] > 0)
            grads = gW + gb
            t += 1
            for i, (prm, gr) in enumerate(zip(params, grads)):
                m[i] = b1 * m[i] + (1 - b1) * gr
                v[i] = b2 * v[i] + (1 - b2) * gr * gr
                prm -= lr * (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + 1e-8)
        if epoch in (epochs // 2, epochs * 3 // 4):
            lr /= 3
        if log and (epoch + 1) % 5 == 0:
            print(f"  epoch {epoch + 1} of {epochs}", flush=True)
    model = {"mean": mean, "std": std}
    for i in range(L):
        model[f"w{i + 1}"], model[f"b{i + 1}"] = Ws[i], bs[i]
    return {k: v.astype(np.float16) for k, v in model.items()}


def accuracy(model, X, Y):
    """Share right, and share of the digits read as another digit (the silent kind of error)."""
    m32 = {k: v.astype(np.float32) for k, v in model.items()}
    pred = picture_digits.classify(X, m32).argmax(1)
    digit = Y > 0
    wrong_digit = digit & (pred > 0) & (pred != Y)
    return float((pred == Y).mean()), float(wrong_digit.sum() / max(1, digit.sum()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=picture_digits.MODEL_PATH)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-class", type=int, default=9000, help="islands drawn of each digit")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--skip-check", action="store_true", help="do not train the left-out-fonts check first")
    ap.add_argument("--held", action="store_true", help="also measure on the held-back fonts (never tuned on)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    fonts = font_files(TRAINING_FONTS)
    if not fonts:
        print("no training fonts found (apt-get install fonts-dejavu fonts-liberation fonts-freefont-ttf "
              "fonts-urw-base35 fonts-texgyre)", file=sys.stderr)
        return 2
    t0 = time.time()
    if not args.skip_check:
        check = [f for f in fonts if any(k in os.path.basename(f) for k in CHECK_FONTS)]
        rest = [f for f in fonts if f not in check]
        X, Y = build(rest, args.per_class // 2, rng)
        Xc, Yc = build(check, max(200, args.per_class // 10), rng, log=False)
        model = train(X, Y, rng, epochs=max(5, args.epochs * 2 // 3))
        acc, silent = accuracy(model, Xc, Yc)
        print(f"left-out training fonts ({', '.join(os.path.basename(f) for f in check)}): accuracy {acc:.4f}, "
              f"digits read as another digit {silent:.4f}, on {len(Yc)} samples (trained on {len(Y)})", flush=True)
    X, Y = build(fonts, args.per_class, rng)
    model = train(X, Y, rng, epochs=args.epochs)
    acc, silent = accuracy(model, X, Y)
    print(f"{len(fonts)} fonts, {len(Y)} samples, training accuracy {acc:.4f}, {time.time() - t0:.0f} s", flush=True)
    if args.held:
        held = font_files(HELD_FONTS)
        Xh, Yh = build(held, max(300, args.per_class // 10), np.random.default_rng(args.seed + 1000), log=False)
        acc, silent = accuracy(model, Xh, Yh)
        print(f"held-back fonts ({len(held)} files): accuracy {acc:.4f}, digits read as another digit "
              f"{silent:.4f}, on {len(Yh)} samples", flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **model)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
