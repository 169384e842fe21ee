"""Rebuild hashikit/data/digits.npz, the digit classifier the picture reader uses.

    .venv/bin/python scripts/train_digits.py [--out hashikit/data/digits.npz] [--seed 1]

The training data are made here, not downloaded: the digits 1-8 (and, as "not an island's
digit", 0, 9, letters, punctuation and ink scraps) rendered in every DejaVu and Liberation
font of the machine (Debian: fonts-dejavu-core, fonts-dejavu-extra, fonts-liberation) at
8-56 px, dark on light and with a light ring around them, turned by up to 6 degrees, blurred,
scaled down and up, with noise and JPEG artefacts.  Each sample goes through the reader's own
steps (hashikit.formats.picture: the contrast image, the ink threshold, the largest ink component,
``features``), so the network sees exactly what the reader will give it.  The same seed and
fonts give the same model.

The network is a small multilayer perceptron (257 -> 96 -> 48 -> 9, ReLU, softmax), trained
with Adam in numpy; the file holds its weights and the input normalisation (about 130 kB).
It prints the accuracy on fonts left out of training (Liberation Serif, DejaVu Sans Mono)
first, then trains on every font for the shipped model.
"""

from __future__ import annotations

import argparse
import glob
import io
import os
import sys
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from hashikit.formats import picture  # noqa: E402

FONT_GLOBS = ("/usr/share/fonts/truetype/dejavu/DejaVu*.ttf", "/usr/share/fonts/truetype/liberation/Liberation*.ttf")
NEGATIVES = "09abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ?#%&@()+=<>/"
LEFT_OUT = ("LiberationSerif-Regular", "DejaVuSansMono.ttf")


def fonts() -> list[str]:
    out = []
    for pattern in FONT_GLOBS:
        out += [f for f in sorted(glob.glob(pattern)) if "MathTeX" not in f]
    return out


_FONTS: dict = {}


def render(ch: str, font_path: str, rng: np.random.Generator, ring: bool):
    size = int(rng.integers(8, 57))
    if (font_path, size) not in _FONTS:
        _FONTS[font_path, size] = ImageFont.truetype(font_path, size)
    font = _FONTS[font_path, size]
    pad = int(size * 1.3)
    W = H = size + 2 * pad
    bg = int(rng.integers(170, 256))
    ink = int(rng.integers(0, max(1, bg - 90)))
    im = Image.new("L", (W, H), bg)
    d = ImageDraw.Draw(im)
    stroke = int(rng.integers(0, 2)) if size > 24 and rng.random() < 0.3 else 0
    d.text((W / 2, H / 2), ch, font=font, fill=ink, anchor="mm", stroke_width=stroke, stroke_fill=ink)
    if ring:
        r = size * rng.uniform(0.85, 1.15)
        wd = max(1, round(size * rng.uniform(0.04, 0.12)))
        d.ellipse((W / 2 - r, H / 2 - r, W / 2 + r, H / 2 + r), outline=ink, width=wd)
    angle = rng.uniform(-6, 6)
    im = im.rotate(angle, resample=Image.BILINEAR, fillcolor=bg)
    if rng.random() < 0.5:
        im = im.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.0) * max(1, size / 20)))
    if rng.random() < 0.4 and size > 12:
        f = rng.uniform(0.5, 0.9)
        small = im.resize((max(8, int(W * f)), max(8, int(H * f))), Image.BILINEAR)
        im = small.resize((W, H), Image.BILINEAR)
    a = np.asarray(im, np.float32) / 255.0
    if rng.random() < 0.5:
        a = np.clip(a + rng.normal(0, rng.uniform(0.005, 0.04), a.shape), 0, 1)
    if rng.random() < 0.4:
        buf = io.BytesIO()
        Image.fromarray((a * 255).astype(np.uint8)).save(buf, "JPEG", quality=int(rng.integers(40, 95)))
        a = np.asarray(Image.open(buf), np.float32) / 255.0
    return a


def scrap(rng: np.random.Generator):
    """Ink that is no digit: a dot, a dash, a bar, a blob, a short arc."""
    size = int(rng.integers(8, 57))
    W = H = size * 3
    a = np.ones((H, W), np.float32)
    im = Image.fromarray((a * 255).astype(np.uint8))
    d = ImageDraw.Draw(im)
    kind = rng.integers(0, 4)
    c = W / 2
    if kind == 0:
        r = size * rng.uniform(0.1, 0.5)
        d.ellipse((c - r, c - r, c + r, c + r), fill=0)
    elif kind == 1:
        w = max(1, int(size * rng.uniform(0.05, 0.3)))
        d.line((c, c - size / 2, c + rng.uniform(-2, 2), c + size / 2), fill=0, width=w)
    elif kind == 2:
        d.arc((c - size / 2, c - size / 2, c + size / 2, c + size / 2), rng.uniform(0, 360), rng.uniform(0, 360),
              fill=0, width=max(1, int(size * 0.1)))
    else:
        d.rectangle((c - size * 0.3, c - size / 2, c + size * 0.3, c + size / 2), outline=0,
                    width=max(1, int(size * 0.08)))
    return np.asarray(im.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1))), np.float32) / 255.0


def sample_features(gray):
    """The reader's steps on one rendered sample: the largest ink component's features."""
    import cv2

    contrast = picture._contrast(gray)
    ink, _ = picture._ink(contrast)
    if ink is None:
        return None
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    if n < 2:
        return None
    H, W = gray.shape
    best = None
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if w > 1.1 * h or w < 0.1 * h or h < 6:  # the reader's shape gate (rings are wider)
            continue
        dist = abs(x + w / 2 - W / 2) + abs(y + h / 2 - H / 2)
        if dist > 0.12 * min(H, W):
            continue
        if best is None or w * h < best[0]:  # the glyph, not the ring around it
            best = (w * h, i)
    if best is None:
        return None
    i = best[1]
    x, y, w, h, _ = stats[i]
    crop = np.where(labels[y:y + h, x:x + w] == i, contrast[y:y + h, x:x + w], 0.0)
    return picture.features(crop)


def build(font_list, per_font: int, rng):
    X, Y = [], []
    for path in font_list:
        for digit in range(1, 9):
            for _ in range(per_font):
                f = sample_features(render(str(digit), path, rng, ring=rng.random() < 0.4))
                if f is not None:
                    X.append(f)
                    Y.append(digit)
        for _ in range(per_font * 3):
            ch = NEGATIVES[rng.integers(0, len(NEGATIVES))]
            f = sample_features(render(ch, path, rng, ring=rng.random() < 0.3))
            if f is not None:
                X.append(f)
                Y.append(0)
    for _ in range(per_font * len(font_list) // 4):
        f = sample_features(render(" ", font_list[0], rng, ring=True))  # a ring alone
        if f is not None:
            X.append(f)
            Y.append(0)
    for _ in range(per_font * len(font_list)):
        f = sample_features(scrap(rng))
        if f is not None:
            X.append(f)
            Y.append(0)
    return np.stack(X), np.array(Y)


def train(X, Y, rng, epochs=40):
    mean, std = X.mean(0), X.std(0) + 1e-3
    Xn = (X - mean) / std
    sizes = [X.shape[1], 96, 48, 9]
    Ws = [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = Ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, t = 2e-3, 0.9, 0.999, 0
    n = len(Xn)
    for epoch in range(epochs):
        order = rng.permutation(n)
        for k in range(0, n, 128):
            idx = order[k:k + 128]
            x, y = Xn[idx], Y[idx]
            h1 = np.maximum(x @ Ws[0] + bs[0], 0)
            h2 = np.maximum(h1 @ Ws[1] + bs[1], 0)
            z = h2 @ Ws[2] + bs[2]
            z -= z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            g = p
            g[np.arange(len(y)), y] -= 1
            g /= len(y)
            gW2 = h2.T @ g
            gb2 = g.sum(0)
            g2 = (g @ Ws[2].T) * (h2 > 0)
            gW1 = h1.T @ g2
            gb1 = g2.sum(0)
            g1 = (g2 @ Ws[1].T) * (h1 > 0)
            gW0 = x.T @ g1
            gb0 = g1.sum(0)
            grads = [gW0 + 1e-4 * Ws[0], gW1 + 1e-4 * Ws[1], gW2 + 1e-4 * Ws[2], gb0, gb1, gb2]
            t += 1
            for i, (prm, gr) in enumerate(zip(params, grads)):
                m[i] = b1 * m[i] + (1 - b1) * gr
                v[i] = b2 * v[i] + (1 - b2) * gr * gr
                prm -= lr * (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + 1e-8)
        if epoch == epochs * 3 // 4:
            lr /= 4
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32), "w1": Ws[0], "b1": bs[0],
            "w2": Ws[1], "b2": bs[1], "w3": Ws[2], "b3": bs[2]}


def accuracy(model, X, Y):
    picture._model = model
    pred = picture.classify(X).argmax(1)
    return float((pred == Y).mean())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=picture.MODEL_PATH)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-font", type=int, default=30, help="samples of each digit per font")
    ap.add_argument("--skip-check", action="store_true", help="do not train the left-out-fonts check first")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    all_fonts = fonts()
    if not all_fonts:
        print("no DejaVu or Liberation fonts found (apt-get install fonts-dejavu fonts-liberation)", file=sys.stderr)
        return 2
    t0 = time.time()
    if not args.skip_check:
        held = [f for f in all_fonts if any(k in f for k in LEFT_OUT)]
        rest = [f for f in all_fonts if f not in held]
        X, Y = build(rest, args.per_font // 2, rng)
        Xh, Yh = build(held, args.per_font // 2, rng)
        model = train(X, Y, rng, epochs=25)
        print(f"left-out fonts ({', '.join(os.path.basename(f) for f in held)}): accuracy "
              f"{accuracy(model, Xh, Yh):.4f} on {len(Yh)} samples (trained on {len(Y)})")
    X, Y = build(all_fonts, args.per_font, rng)
    model = train(X, Y, rng)
    print(f"{len(all_fonts)} fonts, {len(Y)} samples, training accuracy {accuracy(model, X, Y):.4f}, "
          f"{time.time() - t0:.0f} s")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **model)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
