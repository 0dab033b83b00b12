"""Small plotting helpers (matplotlib), so notebooks don't repeat figure boilerplate."""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from pathlib import Path

from ptcourse.messages import msg

__all__ = ["describe", "plot_broadcast", "plot_curves", "plot_grad_graph", "plot_storage", "show_images",
           "use_language_fonts"]

ALT_ATTR = "_ptcourse_alt"  # where a figure keeps its text alternative (describe)


def describe(fig_or_ax, alt: str, notice: str | None = None):
    """Give a figure its text alternative; returns ``fig_or_ax``.

    ``alt`` says what the figure shows (in the learner's language: pass a catalogue message),
    ``notice`` what to notice in it; both together become the ``alt`` of the ``<img>`` the notebook
    shows: a described figure is displayed as HTML, ``<img src="data:image/png;base64,…" alt="…">``
    (JupyterLab's own PNG renderer sets no ``alt`` from anything; its sanitizer keeps an ``<img>``'s
    ``alt`` and ``data:`` source). Every figure that
    :mod:`ptcourse.plotting` draws is described; a figure drawn with matplotlib in a cell calls
    this itself: ``describe(fig, msg("topic.fig_alt"))``.
    """
    from matplotlib.figure import Figure

    fig = fig_or_ax if isinstance(fig_or_ax, Figure) else fig_or_ax.figure
    setattr(fig, ALT_ATTR, msg("plot.alt_notice", alt=alt, notice=notice) if notice else alt)
    _install_alt_formatter()
    return fig_or_ax


def alt_text(fig_or_ax) -> str | None:
    """The text alternative :func:`describe` gave the figure, or None."""
    return getattr(getattr(fig_or_ax, "figure", fig_or_ax), ALT_ATTR, None)


def _with_alt(inner):
    """An IPython PNG/JPEG formatter for figures that leaves described figures to :func:`_as_html`."""
    def format_figure(fig):
        return None if getattr(fig, ALT_ATTR, None) else inner(fig)

    format_figure.ptcourse_alt = True
    return format_figure


def _as_html(png):
    """An IPython HTML formatter for figures: a described figure as ``<img>`` with its ``alt`` text."""
    def format_figure(fig):
        alt = getattr(fig, ALT_ATTR, None)
        out = png(fig) if alt else None
        if out is None:
            return None
        data, metadata = out if isinstance(out, tuple) and len(out) == 2 else (out, None)
        encoded = data if isinstance(data, str) else base64.b64encode(data).decode("ascii")
        size = "".join(f' {key}="{int(metadata[key])}"' for key in ("width", "height") if key in (metadata or {}))
        return f'<img src="data:image/png;base64,{encoded}" alt="{html.escape(alt, quote=True)}"{size}>'

    format_figure.ptcourse_alt = True
    return format_figure


def _install_alt_formatter() -> None:
    """Show described figures as HTML ``<img alt>`` (:func:`_as_html`, from matplotlib_inline's PNG
    formatter) instead of a bare PNG (:func:`_with_alt`). Done when a figure is described, after
    pyplot chose the inline backend and registered its formatters."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    from matplotlib.figure import Figure

    formatters = shell.display_formatter.formatters
    current = {}
    for mime in ("image/png", "image/jpeg"):
        try:
            current[mime] = formatters[mime].lookup_by_type(Figure) if mime in formatters else None
        except KeyError:
            current[mime] = None
    png = current["image/png"]
    if png is None or getattr(png, "ptcourse_alt", False) or "text/html" not in formatters:
        return
    formatters["text/html"].for_type(Figure, _as_html(png))
    for mime, inner in current.items():
        if inner is not None:
            formatters[mime].for_type(Figure, _with_alt(inner))


def _series(curves: Mapping[str, Sequence[float]], key: str) -> str:
    """Each named series in a few words, for a figure's text alternative."""
    return msg("plot.alt_separator").join(
        msg(key, name=name, first=float(values[0]), last=float(values[-1]), n=len(values))
        for name, values in curves.items() if len(values))


def _titled(title: str | None, description: str) -> str:
    return msg("plot.alt_titled", title=title, description=description) if title else description


def _or(text: str | None, key: str, **values: object) -> str:
    """``text``, or (None) the catalogue's ``key`` in the learner's language: the figures' default
    titles and labels follow the language of the checks (catalogue/*/plotting.py)."""
    return msg(key, **values) if text is None else text


def plot_curves(curves: Mapping[str, Sequence[float]], xlabel: str | None = None, ylabel: str | None = None,
                logy: bool = False, title: str | None = None, notice: str | None = None):
    """One line per named series, e.g. ``plot_curves({"train": losses})``; returns the axes.
    The axes say epoch and loss (in the learner's language) unless ``xlabel``/``ylabel`` are given.
    The figure's text alternative (:func:`describe`) names each series' first and last value, and
    ``notice``, if given, what to notice."""
    import matplotlib.pyplot as plt

    xlabel, ylabel = _or(xlabel, "plot.curves_xlabel"), _or(ylabel, "plot.curves_ylabel")

    fig, ax = plt.subplots(figsize=(5, 3))
    for label, values in curves.items():
        ax.plot(range(1, len(values) + 1), list(values), label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if logy:
        ax.set_yscale("log")
    if title:
        ax.set_title(title)
    if len(curves) > 1:
        ax.legend()
    fig.tight_layout()
    description = msg("plot.curves_alt", xlabel=xlabel, ylabel=ylabel, log=msg("plot.alt_logy") if logy else "",
                      series=_series(curves, "plot.curves_alt_series"))
    describe(fig, _titled(title, description), notice)
    return ax


def plot_latency(latencies: Mapping[str, Mapping[int, float]], title: str | None = None,
                 xlabel: str | None = None, ylabel: str | None = None, guide_label: str | None = None,
                 notice: str | None = None):
    """Latency against batch size, one line per engine, both axes logarithmic; returns the axes.

    ``latencies`` maps an engine's name to ``{batch size: median milliseconds per call}``, e.g.
    ``plot_latency({"eager": {1: 0.05, 64: 0.4}, "ONNX Runtime": {1: 0.01, 64: 0.3}})``. A dotted
    grey line shows what "proportional to the batch size" would look like from the first
    engine's smallest batch, so the benefit of batching is visible at a glance.
    """
    import matplotlib.pyplot as plt

    title, xlabel = _or(title, "plot.latency_title"), _or(xlabel, "plot.latency_xlabel")
    ylabel, guide_label = _or(ylabel, "plot.latency_ylabel"), _or(guide_label, "plot.latency_guide")
    fig, ax = plt.subplots(figsize=(6, 3.4))
    sizes_seen: set[int] = set()
    for label, points in latencies.items():
        if not points:
            raise ValueError(f"no measurements for {label!r}")
        sizes = sorted(points)
        sizes_seen.update(sizes)
        ax.plot(sizes, [points[s] for s in sizes], "o-", label=label)
    first = next(iter(latencies.values()))
    smallest = min(first)
    ticks = sorted(sizes_seen)
    ax.plot(ticks, [first[smallest] * size / smallest for size in ticks], ":", color="tab:gray",
            label=guide_label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    series = msg("plot.alt_separator").join(
        msg("plot.latency_alt_series", name=name, small=min(points), first=points[min(points)],
            large=max(points), last=points[max(points)]) for name, points in latencies.items())
    describe(fig, _titled(title, msg("plot.latency_alt", xlabel=xlabel, ylabel=ylabel, guide=guide_label,
                                     series=series)), notice)
    return ax


__all__ += ["plot_latency"]


def show_images(images, titles: Sequence[str] | None = None, ncols: int = 8, notice: str | None = None):
    """A grid of grey-scale images (a tensor ``(N, 1, H, W)`` or ``(N, H, W)``); returns the figure.
    Its text alternative lists the images' titles (:func:`describe`), and ``notice``, if given."""
    import matplotlib.pyplot as plt

    images = images.detach().cpu()
    if images.dim() not in (3, 4):  # before the figure: a (1000, 1) tensor would make 1000 empty axes first
        raise ValueError(msg("plot.images_shape", shape=tuple(images.shape)))
    if images.dim() == 4:
        images = images[:, 0]
    n = len(images)
    nrows = max(1, -(-n // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * 1.2, nrows * 1.4), squeeze=False)
    for i, ax in enumerate(axes.flat):
        ax.axis("off")
        if i < n:
            ax.imshow(images[i].numpy(), cmap="gray")
            if titles is not None:
                ax.set_title(titles[i], fontsize=8)
    fig.tight_layout()
    description = msg("plot.images_alt", n=n, height=images.shape[-2], width=images.shape[-1])
    if titles is not None:
        description = msg("plot.images_alt_titles", description=description,
                          titles=msg("plot.alt_separator").join(str(t) for t in titles[:n]))
    describe(fig, description, notice)
    return fig


def plot_broadcast(shape_a: Sequence[int], shape_b: Sequence[int], names: Sequence[str] = ("a", "b"),
                   notice: str | None = None):
    """Two shapes lined up from the right, as broadcasting compares them; returns the figure.

    One row of boxes per shape and one for the result. A size that is stretched (a 1, or a
    missing axis) is drawn hatched with ``1→n``; a pair that cannot broadcast is drawn red.
    """
    import matplotlib.pyplot as plt
    import torch
    from matplotlib.patches import Rectangle

    a, b = tuple(int(s) for s in shape_a), tuple(int(s) for s in shape_b)
    width = max(len(a), len(b), 1)
    try:
        result: tuple[int, ...] | None = tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        result = None
    fig, ax = plt.subplots(figsize=(1.3 * width + 2.4, 2.6))
    rows = [(names[0], a), (names[1], b)]
    for row, (_, shape) in enumerate(rows):
        y = 2 - row
        padded = (None,) * (width - len(shape)) + shape
        other = rows[1 - row][1]
        other_padded = (None,) * (width - len(other)) + other
        for col, (size, partner) in enumerate(zip(padded, other_padded, strict=True)):
            target = max(s for s in (size, partner) if s is not None)
            clash = size not in (None, 1) and partner not in (None, 1) and size != partner
            stretched = (size is None or size == 1) and target != 1 and not clash
            face = "#f4a6a6" if clash else ("#fde9b8" if stretched else "#cfe3f7")
            ax.add_patch(Rectangle((col + 0.05, y + 0.1), 0.9, 0.8, facecolor=face, edgecolor="black",
                                   hatch="//" if stretched else None, linestyle="--" if size is None else "-"))
            label = ("(1)" if size is None else str(size)) + (f"→{target}" if stretched else "")
            ax.text(col + 0.5, y + 0.5, label, ha="center", va="center", fontsize=11)
    for col in range(width):
        ax.add_patch(Rectangle((col + 0.05, 0.1), 0.9, 0.8, facecolor="#d5efd0" if result else "#f4a6a6",
                               edgecolor="black"))
        text = str(result[col]) if result else "✗"
        ax.text(col + 0.5, 0.5, text, ha="center", va="center", fontsize=11, weight="bold")
    ax.set_xlim(0, width)
    ax.set_ylim(0, 3)
    ax.set_xticks([c + 0.5 for c in range(width)], [msg("plot.broadcast_axis", index=c - width) for c in range(width)])
    ax.set_yticks([2.5, 1.5, 0.5], [f"{names[0]} {a}", f"{names[1]} {b}", msg("plot.broadcast_result")])
    ax.set_xlabel(msg("plot.broadcast_xlabel"))
    title = (msg("plot.broadcast_gives", a=a, b=b, result=result) if result is not None
             else msg("plot.broadcast_fails", a=a, b=b))
    ax.set_title(title)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    describe(fig, _titled(title, msg("plot.broadcast_alt", a=f"{names[0]} {a}", b=f"{names[1]} {b}")), notice)
    return fig


def _storage_positions(t, base) -> list[int] | None:
    """Where in ``base``'s storage each element of ``t`` lives (reading order), or ``None`` for a copy."""
    if t.untyped_storage().data_ptr() != base.untyped_storage().data_ptr() or t.dtype != base.dtype:
        return None
    import itertools

    start = (t.data_ptr() - base.untyped_storage().data_ptr()) // t.element_size()
    return [start + sum(i * s for i, s in zip(index, t.stride(), strict=True))
            for index in itertools.product(*(range(n) for n in t.shape))]


def plot_storage(base, tensors: Mapping[str, object], base_name: str = "x", notice: str | None = None):
    """Which cells of ``base``'s memory each tensor reads; returns the figure.

    The top row is ``base``'s storage, one box per element. Each named tensor gets a row: a
    view marks the storage cells it reads, numbered in the order it reads them (a transpose
    jumps by its stride); a copy is drawn apart, grey, as memory of its own.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = base.untyped_storage().nbytes() // base.element_size()
    values = base.detach().cpu().reshape(-1).tolist() if base.is_contiguous() else None
    rows = [(base_name, base)] + list(tensors.items())
    fig, ax = plt.subplots(figsize=(0.55 * n + 4.2, 0.62 * len(rows) + 1.2))
    for row, (_, t) in enumerate(rows):
        y = len(rows) - 1 - row
        positions = list(range(base.numel())) if row == 0 else _storage_positions(t, base)
        if positions is None:
            ax.add_patch(Rectangle((-0.02, y + 0.08), t.numel() + 0.04, 0.84, facecolor="none",
                                   edgecolor="grey", linestyle=":"))
            for k in range(t.numel()):
                ax.add_patch(Rectangle((k + 0.08, y + 0.15), 0.84, 0.7, facecolor="#dddddd", edgecolor="grey"))
                ax.text(k + 0.5, y + 0.5, str(k), ha="center", va="center", fontsize=8, color="dimgrey")
            note = msg("plot.storage_copy")
        else:
            for cell in range(n):
                used = cell in positions
                ax.add_patch(Rectangle((cell + 0.08, y + 0.15), 0.84, 0.7, edgecolor="black",
                                       facecolor=("#cfe3f7" if row == 0 else "#fde9b8") if used else "white"))
            for order, cell in enumerate(positions):
                label = (f"{values[cell]:g}" if values and row == 0 else str(order))
                ax.text(cell + 0.5, y + 0.5, label, ha="center", va="center", fontsize=8)
            note = msg("plot.storage_base") if row == 0 else msg("plot.storage_view")
        ax.text(n + 0.3, y + 0.5, msg("plot.storage_row", shape=tuple(t.shape), stride=t.stride(), note=note),
                va="center", fontsize=8)
    ax.set_xlim(0, n + 4.0)
    ax.set_ylim(0, len(rows))
    ax.set_xticks([k + 0.5 for k in range(n)], [str(k) for k in range(n)])
    ax.set_yticks([len(rows) - 0.5 - r for r in range(len(rows))], [name for name, _ in rows])
    ax.set_xlabel(msg("plot.storage_xlabel", base=base_name))
    title = msg("plot.storage_title", base=base_name)
    ax.set_title(title)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    rows_alt = msg("plot.alt_separator").join(
        msg("plot.storage_alt_row", name=name, note=msg("plot.storage_copy") if _storage_positions(t, base) is None
            else msg("plot.storage_alt_view", cells=_storage_positions(t, base)))
        for name, t in tensors.items())
    describe(fig, _titled(title, msg("plot.storage_alt", base=base_name, n=n, rows=rows_alt)), notice)
    return fig


def grad_graph(output, names: Mapping[str, object] | None = None):
    """The autograd graph behind ``output``: ``(nodes, edges)`` walked along ``next_functions``.

    ``nodes`` maps a node's id to ``(label, depth)`` (depth 0 is ``output.grad_fn``, deeper is
    closer to the leaves); ``edges`` lists ``(from_id, to_id)`` in the direction backward runs.
    A leaf's ``AccumulateGrad`` node is labelled with its name from ``names`` when given.
    """
    leaf_names = {id(t): name for name, t in (names or {}).items()}
    nodes: dict[int, tuple[str, int]] = {}
    edges: list[tuple[int, int]] = []
    depth: dict[int, int] = {}
    order: list[object] = []
    stack = [(output.grad_fn, 0)]
    while stack:
        fn, d = stack.pop()
        if fn is None:
            continue
        key = id(fn)
        if key in depth and depth[key] >= d:
            continue
        if key not in depth:
            order.append(fn)
        depth[key] = d
        for child, _ in fn.next_functions:
            if child is not None:
                stack.append((child, d + 1))
    for fn in order:
        label = type(fn).__name__
        variable = getattr(fn, "variable", None)
        if variable is not None:
            label = f"{leaf_names.get(id(variable), 'leaf')}\n{label}"
        nodes[id(fn)] = (label, depth[id(fn)])
        edges.extend((id(fn), id(child)) for child, _ in fn.next_functions if child is not None)
    return nodes, edges


def plot_grad_graph(output, names: Mapping[str, object] | None = None, title: str | None = None,
                    notice: str | None = None):
    """Draw :func:`grad_graph` of ``output``: leaves on the left, the output's node on the right.

    Arrows point the way ``backward()`` walks, from the output towards the leaves. Returns the
    figure.
    """
    import matplotlib.pyplot as plt

    nodes, edges = grad_graph(output, names)
    deepest = max((d for _, d in nodes.values()), default=0)
    levels: dict[int, list[int]] = {}
    for key, (_, d) in nodes.items():
        levels.setdefault(d, []).append(key)
    where: dict[int, tuple[float, float]] = {}
    for d, keys in levels.items():
        for i, key in enumerate(keys):
            where[key] = (float(deepest - d), (len(keys) - 1) / 2 - i)
    tallest = max((len(k) for k in levels.values()), default=1)
    fig, ax = plt.subplots(figsize=(2.3 * (deepest + 1) + 1, 1.1 * tallest + 1.4))
    for a, b in edges:
        (xa, ya), (xb, yb) = where[a], where[b]
        ax.annotate("", xy=(xb + 0.32, yb), xytext=(xa - 0.32, ya),
                    arrowprops={"arrowstyle": "->", "color": "dimgrey"})
    for key, (label, _) in nodes.items():
        x, y = where[key]
        leaf = "AccumulateGrad" in label
        ax.text(x, y, label, ha="center", va="center", fontsize=8,
                bbox={"boxstyle": "round", "facecolor": "#d5efd0" if leaf else "#cfe3f7"})
    ax.set_xlim(-0.7, deepest + 0.7)
    ax.set_ylim(-tallest / 2 - 0.2, tallest / 2 + 0.2)
    ax.axis("off")
    title = title or msg("plot.grad_graph_title")
    ax.set_title(title)
    fig.tight_layout()
    labels = [label.replace("\n", " ") for label, _ in sorted(nodes.values(), key=lambda n: n[1])]
    describe(fig, _titled(title, msg("plot.grad_graph_alt", n=len(nodes), nodes=msg("plot.alt_separator").join(labels))),
             notice)
    return fig


def plot_scale_history(scales: Sequence[float], skipped: Sequence[bool],
                       title: str | None = None, xlabel: str | None = None, ylabel: str | None = None,
                       skipped_label: str | None = None, stepped_label: str | None = None,
                       notice: str | None = None):
    """The scale a ``GradScaler`` used at each step (log₂ axis), skipped steps marked; returns the axes.

    ``scales[i]`` is ``scaler.get_scale()`` read before step ``i + 1``'s ``scaler.step``;
    ``skipped[i]`` says whether that step was skipped (its gradients held inf or NaN).
    """
    import matplotlib.pyplot as plt

    if len(scales) != len(skipped):
        raise ValueError(f"{len(scales)} scales but {len(skipped)} skipped flags")
    title, xlabel, ylabel = _or(title, "plot.scale_title"), _or(xlabel, "plot.scale_xlabel"), _or(ylabel, "plot.scale_ylabel")
    skipped_label, stepped_label = _or(skipped_label, "plot.scale_skipped"), _or(stepped_label, "plot.scale_stepped")
    steps = list(range(1, len(scales) + 1))
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.step(steps, list(scales), where="post", color="tab:blue", linewidth=1.2)
    ok = [(s, v) for s, v, bad in zip(steps, scales, skipped, strict=True) if not bad]
    bad = [(s, v) for s, v, b in zip(steps, scales, skipped, strict=True) if b]
    if ok:
        ax.plot(*zip(*ok, strict=True), "o", color="tab:blue", markersize=3, label=stepped_label)
    if bad:
        ax.plot(*zip(*bad, strict=True), "x", color="tab:red", markersize=8, markeredgewidth=2,
                label=skipped_label)
    ax.set_yscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    if scales:
        describe(fig, _titled(title, msg("plot.scale_alt", n=len(scales), first=scales[0], last=scales[-1],
                                         skipped=sum(bool(b) for b in skipped))), notice)
    return ax


def plot_memory_vs_batch(batch_sizes: Sequence[int], activation_bytes: Sequence[float],
                         fixed_bytes: float = 0, budget_bytes: float | None = None,
                         title: str | None = None, xlabel: str | None = None, ylabel: str | None = None,
                         activations_label: str | None = None, total_label: str | None = None,
                         fixed_label: str | None = None, budget_label: str | None = None,
                         notice: str | None = None):
    """Activation memory (and, with ``fixed_bytes``, the total) against batch size, in MiB; returns the axes.

    ``fixed_bytes`` (weights, gradients, optimizer state) does not grow with the batch and is
    drawn as a dashed line; ``budget_bytes``, if given, as a red line: the batch sizes whose
    total lies under it fit.
    """
    import matplotlib.pyplot as plt

    if len(batch_sizes) != len(activation_bytes):
        raise ValueError(f"{len(batch_sizes)} batch sizes but {len(activation_bytes)} measurements")
    title, xlabel, ylabel = _or(title, "plot.memory_title"), _or(xlabel, "plot.memory_xlabel"), _or(ylabel, "plot.memory_ylabel")
    activations_label, total_label = _or(activations_label, "plot.memory_activations"), _or(total_label, "plot.memory_total")
    fixed_label, budget_label = _or(fixed_label, "plot.memory_fixed"), _or(budget_label, "plot.memory_budget")
    mib = 2.0**20
    sizes = list(batch_sizes)
    acts = [b / mib for b in activation_bytes]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.plot(sizes, acts, "o-", color="tab:orange", label=activations_label)
    if fixed_bytes:
        ax.axhline(fixed_bytes / mib, color="tab:gray", linestyle="--", label=fixed_label)
        ax.plot(sizes, [a + fixed_bytes / mib for a in acts], "s-", color="tab:blue", label=total_label)
    if budget_bytes is not None:
        ax.axhline(budget_bytes / mib, color="tab:red", linewidth=1.5, label=budget_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    fig.tight_layout()
    if sizes:
        description = msg("plot.memory_alt", small=sizes[0], first=acts[0], large=sizes[-1], last=acts[-1])
        if fixed_bytes:
            description += msg("plot.memory_alt_fixed", fixed=fixed_bytes / mib)
        if budget_bytes is not None:
            description += msg("plot.memory_alt_budget", budget=budget_bytes / mib)
        describe(fig, _titled(title, description), notice)
    return ax


__all__ += ["alt_text", "plot_memory_vs_batch", "plot_scale_history"]


# -- fonts for the learner's language ---------------------------------------------------------
# Chinese (zh-CN) figure text needs a CJK font: Debian's fonts-noto-cjk (apt.txt on Binder,
# .ci/run in CI) gives "Noto Sans CJK SC"; the others are the usual ones on Windows and macOS.
# DejaVu Sans stays first for Latin text; matplotlib falls back glyph by glyph along font.family.
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
             "Microsoft YaHei", "SimHei", "PingFang SC", "Heiti SC")


def _register_cjk_fonts() -> None:
    """Make matplotlib see a CJK font installed after its font cache was written."""
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    if known.intersection(CJK_FONTS):
        return
    for path in font_manager.findSystemFonts():
        if "CJK" in Path(path).name or "WenQuanYi" in path:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue


def use_language_fonts(lang: str | None = None) -> list[str]:
    """When the language (``lang``, else the course's: ``ptcourse.messages.current_lang``) is
    Chinese, make matplotlib draw with DejaVu Sans and fall back to the installed CJK fonts
    (``font.family``; the fonts also head ``font.sans-serif``). Returns the family list in use.
    Called when this module is imported, so the notebooks need not."""
    import matplotlib

    if lang is None:
        from ptcourse.messages import current_lang

        lang = current_lang()
    if not lang.replace("_", "-").lower().startswith("zh"):
        return list(matplotlib.rcParams["font.family"])
    from matplotlib import font_manager

    _register_cjk_fonts()
    known = {f.name for f in font_manager.fontManager.ttflist}
    installed = [f for f in CJK_FONTS if f in known]  # a family not installed would log a warning each figure
    sans = list(matplotlib.rcParams["font.sans-serif"])
    matplotlib.rcParams["font.sans-serif"] = [*installed, *(f for f in sans if f not in installed)]
    if installed:  # matplotlib falls back glyph by glyph only along font.family, not inside "sans-serif"
        matplotlib.rcParams["font.family"] = ["DejaVu Sans", *installed]
    return list(matplotlib.rcParams["font.family"])


def _fonts_for_the_course_language() -> None:
    from ptcourse.messages import current_lang

    if current_lang().lower().startswith("zh"):  # English never imports matplotlib here
        use_language_fonts(current_lang())


_fonts_for_the_course_language()
