"""Source of the small Python programs some catalogue entries run (written to the entry's temp dir).

Each one uses a real library or writes what such programs really write; none of them prints escape
sequences by hand except the plain ``\\r`` writer, which is the pattern itself.
"""

CR_PROGRESS = r"""
import sys
import time

TASKS = [("fetch index", 6), ("download model-00001-of-00002.safetensors", 12), ("verify", 4)]


def frame(name, step, steps):
    pct = step * 100 // steps
    bar = "#" * (pct // 5)
    eta = (steps - step) * 3
    return f"{name}: [{bar:<20}] {pct:3d}% eta {eta}s"


print("starting 3 tasks")
for name, steps in TASKS:
    for step in range(steps + 1):
        # Frames grow and shrink ("eta 12s" -> "eta 9s"); nothing pads or erases the tail.
        sys.stdout.write("\r" + frame(name, step, steps))
        sys.stdout.flush()
        time.sleep(0.01)
    sys.stdout.write(f"\r{name}: done\n")
print("all tasks finished")
"""

TQDM_SINGLE = r"""
import time

from tqdm import tqdm

print("indexing documents")
for _ in tqdm(range(40), desc="indexing", unit="doc", mininterval=0.05):
    time.sleep(0.02)
print("indexed 40 documents")
"""

TQDM_NESTED = r"""
import time

from tqdm import tqdm

print("training")
for epoch in tqdm(range(3), desc="epochs", position=0, mininterval=0.05):
    for _ in tqdm(range(15), desc=f"epoch {epoch}", position=1, leave=False, mininterval=0.05):
        time.sleep(0.015)
    tqdm.write(f"epoch {epoch}: loss={1.0 / (epoch + 1):.3f}")
print("done")
"""

RICH_PROGRESS = r"""
import time

from rich.progress import Progress

SPEEDS = {"downloading weights": 7, "downloading tokenizer": 25, "extracting": 4}

with Progress(refresh_per_second=10) as progress:
    tasks = {name: progress.add_task(name, total=100) for name in SPEEDS}
    step = 0
    while not progress.finished:
        for name, speed in SPEEDS.items():
            progress.update(tasks[name], advance=speed)
        step += 1
        if step % 6 == 0:
            progress.console.print(f"checkpoint {step // 6} reached")
        time.sleep(0.08)
print("all downloads complete")
"""

RICH_STATUS = r"""
import time

from rich.console import Console

console = Console()
with console.status("resolving dependencies...") as status:
    for step, package in enumerate(["numpy", "pandas", "requests", "rich"]):
        time.sleep(0.3)
        console.print(f"resolved {package}")
        status.update(f"resolving dependencies... ({step + 1}/4)")
console.print("resolution complete")
"""

TQDM_WIDE = r"""
import time

from tqdm import tqdm

# Wide (CJK) characters in the description: two cells each, redrawn with \r.
for name in ["下载模型权重", "解压"]:
    for _ in tqdm(range(20), desc=name, mininterval=0.05):
        time.sleep(0.02)
print("完成")
"""

RICH_STATUS_EMOJI = r"""
import time

from rich.console import Console

console = Console()
# A wide emoji spinner and a message with U+FE0F (VS16), as many CLIs print them.
with console.status("⚙️ building wheels", spinner="earth"):
    for step in range(3):
        time.sleep(0.4)
        console.print(f"✔️ built package {step}")
console.print("🎉 done")
"""

# Thirty tasks at once: a live display taller than 24 rows (rich redraws it by moving up ~30 rows).
RICH_MANY_TASKS = r"""
import time

from rich.progress import Progress

with Progress(refresh_per_second=8) as progress:
    tasks = [progress.add_task(f"layer {index:02d}", total=100) for index in range(30)]
    while not progress.finished:
        for index, task in enumerate(tasks):
            progress.update(task, advance=5 + index % 7 * 3)
        time.sleep(0.1)
print("30 layers converted")
"""

# apt's fancy dpkg progress (apt-pkg/install-progress.cc, PackageManagerFancy), byte for byte: the
# scrolling region shrinks by one row, the status line is drawn on the last row with DECSC/CUP/DECRC,
# the region is restored at the end and the status line erased with ED 0. dpkg's own lines scroll
# inside the region above it.
APT_FANCY_PROGRESS = r"""
import math
import os
import sys
import time

out = sys.stdout


def rows_columns():
    size = os.get_terminal_size(out.fileno())
    return size.lines, size.columns


def setup_scroll_area(rows):
    out.write("\n" "\0337" f"\033[0;{rows - 1}r" "\0338" "\033[1A")
    out.flush()


def draw_status(percent):
    rows, columns = rows_columns()
    progress = f"Progress: [{percent:3d}%]"
    out.write("\0337" f"\033[{rows};0f" "\033[42m" "\033[30m" + progress + "\033[49m" "\033[39m")
    size = columns - 4 - len(progress) - 2
    done = max(0, min(size, math.floor(percent / 100 * size)))
    out.write(" [" + "#" * done + "." * (size - done) + "] ")
    out.write("\0338")
    out.flush()


PACKAGES = ["libdemo1", "demo-data", "demo-tools", "demo-doc"]
rows, _ = rows_columns()
print("Reading package lists... Done")
print("Building dependency tree... Done")
print("The following NEW packages will be installed:")
print("  " + " ".join(PACKAGES))
print(f"0 upgraded, {len(PACKAGES)} newly installed, 0 to remove and 0 not upgraded.")
setup_scroll_area(rows)
steps = []
for name in PACKAGES:
    steps.append(f"Selecting previously unselected package {name}.")
    steps.append(f"Preparing to unpack .../{name}_1.0_all.deb ...")
    steps.append(f"Unpacking {name} (1.0) ...")
for name in PACKAGES:
    steps.append(f"Setting up {name} (1.0) ...")
steps.append("Processing triggers for man-db (2.11.2-2) ...")
for index, line in enumerate(steps):
    print(line)
    draw_status(index * 100 // len(steps))
    time.sleep(0.03)
rows, _ = rows_columns()
setup_scroll_area(rows + 1)
out.write("\033[J")
out.flush()
"""

# A short download for the asciinema recording: clear, then a tqdm bar.
CAST_PROGRESS = r"""
import time

from tqdm import tqdm

print("fetching shards")
for _ in tqdm(range(30), desc="shards", unit="shard", mininterval=0.05):
    time.sleep(0.02)
print("30 shards fetched")
"""

# Several tqdm bars at fixed positions, as parallel downloaders draw them, each told the window's
# width (ncols): a bar fills its row exactly and tqdm moves back up with CUU from where it ended, at
# the right margin.
TQDM_POSITIONS = r"""
import shutil
import threading
import time

from tqdm import tqdm

SHARDS = [("model-00001-of-00003.safetensors", 48), ("model-00002-of-00003.safetensors", 36),
          ("model-00003-of-00003.safetensors", 24)]
lock = threading.Lock()
tqdm.set_lock(lock)


def fetch(position, name, size):
    width = shutil.get_terminal_size().columns
    with tqdm(total=size, desc=name, unit="MB", position=position, ncols=width, mininterval=0.05) as bar:
        for _ in range(size):
            time.sleep(0.02 + 0.01 * position)
            bar.update(1)


print("fetching 3 shards")
threads = [threading.Thread(target=fetch, args=(i, name, size)) for i, (name, size) in enumerate(SHARDS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("3 shards fetched")
"""

# rich.progress stretched to the window (expand=True): every row of the live display is exactly the
# terminal's width, redrawn with CR, EL and CUU.
RICH_EXPANDED = r"""
import time

from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

SIZES = {"torch-2.3.0.whl": 9_000_000, "numpy-2.0.0.whl": 3_000_000, "tokenizers-0.19.1.whl": 5_000_000,
         "safetensors-0.4.3.whl": 1_500_000}
columns = (TextColumn("{task.description}"), BarColumn(bar_width=None), DownloadColumn(), TimeRemainingColumn())
with Progress(*columns, expand=True, refresh_per_second=10) as progress:
    tasks = {name: progress.add_task(name, total=size) for name, size in SIZES.items()}
    step = 0
    while not progress.finished:
        for name, size in SIZES.items():
            progress.update(tasks[name], advance=size // (12 + 4 * (step % 3)))
        step += 1
        if step % 8 == 0:
            progress.console.print(f"verified chunk {step // 8}")
        time.sleep(0.06)
print("4 wheels downloaded")
"""
